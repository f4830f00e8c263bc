import { toast } from "sonner";
import { ApiError } from "../../../lib/api-client.ts";
import { forgetErrorToast, rememberErrorToast } from "../../../lib/error-toasts.ts";

/**
 * A billing action that failed: the spec's text says what failed (e.g. "Failed to cancel subscription"), and the
 * server's reason, or why the call never got an answer, is the detail beneath it, so neither hides the other.
 */
export function toastBillingFailure(title: string, error: unknown): void {
  const description = error instanceof ApiError ? error.message : undefined;
  const id = toast.error(title, {
    description,
    onDismiss: (t) => forgetErrorToast(t.id),
    onAutoClose: (t) => forgetErrorToast(t.id),
  });
  rememberErrorToast(id, (shownId) => toast.dismiss(shownId));
}
