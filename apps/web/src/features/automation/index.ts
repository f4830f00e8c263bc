// What the automation feature offers the others (the ticket's SLA panel, the reply box's canned-reply picker); main's
// scripts/check-boundaries.mjs lets a feature reach another only through its index.ts.
export { CannedReplyPicker } from "./components/canned-reply-picker.tsx";
export { SlaPanel } from "./components/sla-panel.tsx";
