import { zodResolver } from "@hookform/resolvers/zod";
import { type DefaultValues, type FieldValues, useForm } from "react-hook-form";
import type { z } from "zod";
import { applyFieldErrors, type ServerFields } from "./form-errors.ts";

/**
 * The one way to write a form (CODE_STYLE.md, "Forms"): react-hook-form validated by a zod schema built from the
 * contract's fields. `submit` wraps handleSubmit: a refusal's per-field messages go under their inputs, and any other
 * failure goes to `onError` (a toast, or an alert in a dialog), so each failure is shown once.
 */
export function useContractForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: NoInfer<DefaultValues<Input>>,
) {
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(schema), defaultValues });
  const submit = (
    fields: ServerFields<Input>,
    save: (values: Output) => Promise<unknown>,
    onError: (error: unknown) => void,
  ) =>
    form.handleSubmit(async (values) => {
      try {
        await save(values);
      } catch (error) {
        if (!applyFieldErrors(error, form.setError, fields)) onError(error);
      }
    });
  return { ...form, submit };
}
