import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api-client.ts";

/**
 * Which inputs may carry a server message: a list of field names (matched against the last segment of the server's
 * path), or, for nested forms (rows of a field array), a function from the server's dotted path to the form's field.
 */
export type ServerFields<F extends FieldValues> = readonly Path<F>[] | ((path: string) => Path<F> | undefined);

/**
 * Puts the server's per-field messages (validation `details`) under the matching inputs.
 * Returns true when at least one field got a message, so the caller knows whether a form-level message is still needed.
 */
export function applyFieldErrors<F extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<F>,
  fields: ServerFields<F>,
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const detail of error.details) {
    // The server may report "email", "body.email" or "/email".
    const path = detail.path.replace(/^[./]/, "").replaceAll("/", ".");
    const field = typeof fields === "function" ? fields(path) : fields.find((f) => f === path.split(".").pop());
    if (field) {
      setError(field, { type: "server", message: detail.message });
      applied = true;
    }
  }
  return applied;
}
