import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api-client.ts";

/**
 * Puts the server's per-field messages (validation `details`) under the matching inputs.
 * Returns true when at least one field got a message, so the caller knows whether a form-level message is still needed.
 */
export function applyFieldErrors<F extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<F>,
  fields: readonly Path<F>[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const detail of error.details) {
    // The server may report "email", "body.email" or "/email"; the last segment is the field name.
    const name = detail.path.split(/[./]/).pop();
    const field = fields.find((f) => f === name);
    if (field) {
      setError(field, { type: "server", message: detail.message });
      applied = true;
    }
  }
  return applied;
}
