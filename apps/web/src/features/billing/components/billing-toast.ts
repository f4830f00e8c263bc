import { toastError } from "../../../lib/toast-error.ts";

/** A billing action that failed (e.g. "Failed to cancel subscription"), with the server's reason beneath it. */
export function toastBillingFailure(title: string, error: unknown): void {
  toastError(error, title);
}
