// What the billing feature offers the others; everything else in it is its own business (scripts/check-boundaries.mjs).
export { useConvertTrial, useReloadBilling } from "./api/billing.api.ts";
export { PaymentDialog } from "./components/payment-dialog.tsx";
export { PaymentForm } from "./components/payment-form.tsx";
