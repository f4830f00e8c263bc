import { toast } from "sonner";
import { ApiError, errorText } from "./api-client.ts";
import { forgetErrorToast, rememberErrorToast } from "./error-toasts.ts";

/** Toasts the server's text, else the screen's fallback; when we know why it failed (offline...), says so below. */
export function toastError(error: unknown, fallback: string): void {
  const description = error instanceof ApiError && !error.fromServer ? error.message : undefined;
  const id = toast.error(errorText(error, fallback), {
    description,
    onDismiss: (t) => forgetErrorToast(t.id),
    onAutoClose: (t) => forgetErrorToast(t.id),
  });
  rememberErrorToast(id, (shownId) => toast.dismiss(shownId));
}
