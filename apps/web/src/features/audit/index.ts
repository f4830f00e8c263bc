// What the audit feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { AuditLogPanel } from "./components/audit-log-panel.tsx";
