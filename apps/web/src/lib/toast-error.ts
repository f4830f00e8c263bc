import { toast } from "sonner";
import { ApiError } from "./api-client.ts";
import { forgetErrorToast, rememberErrorToast } from "./error-toasts.ts";

/**
 * Every error toast: the screen's text says what failed (the spec's message, e.g. "Profile update failed") and is the
 * title; the server's reason, or why the call got no answer (offline...), is the description beneath it, so neither
 * hides the other. A failure found on the page itself (no call made) gives its own reason as `detail`. Leaving the
 * screen dismisses it (error-toasts.ts).
 */
export function toastError(error: unknown, title: string, detail?: string): void {
  const description = error instanceof ApiError ? error.message : detail;
  const id = toast.error(title, {
    description: description === title ? undefined : description,
    onDismiss: (t) => forgetErrorToast(t.id),
    onAutoClose: (t) => forgetErrorToast(t.id),
  });
  rememberErrorToast(id, (shownId) => toast.dismiss(shownId));
}

/**
 * For the spec's messages that hold the reason ("Failed to invite user: {reason}"): the server's text, else noAnswer,
 * goes in the title; why the call got no answer (offline...) is the description.
 */
export function toastErrorWithReason(error: unknown, title: (reason: string) => string, noAnswer: string): void {
  const fromServer = error instanceof ApiError && error.fromServer;
  toastError(fromServer ? null : error, title(fromServer ? (error as ApiError).message : noAnswer));
}
