import { zodResolver } from "@hookform/resolvers/zod";
import {
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type UseFormProps,
  type UseFormRegisterReturn,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { applyFieldErrors, type ServerFields } from "./form-errors.ts";

/**
 * The one way to write a form (CODE_STYLE.md, "Forms"): react-hook-form validated by a zod schema built from the
 * contract's fields. `submit` wraps handleSubmit: a refusal's per-field messages go under their inputs, and any other
 * failure goes to `onError` (a toast, or an alert in a dialog), so each failure is shown once. A form may also handle
 * its submission itself with `handleSubmit` (when its failure has a place of its own: an alert above a sign-in form,
 * the spec's toast with the reason beside the fields'). `options` are react-hook-form's others (`values` for a form
 * that follows data loaded after it opened). `field(name)` is what a field component (TextField and the others taking
 * `error`) is given for an input: its registration and its error message.
 */
export function useContractForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  defaultValues: NoInfer<DefaultValues<Input>>,
  options: Omit<UseFormProps<NoInfer<Input>, unknown, NoInfer<Output>>, "resolver" | "defaultValues"> = {},
) {
  const form = useForm<Input, unknown, Output>({ ...options, resolver: zodResolver(schema), defaultValues });
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
  const field = <N extends FieldPath<Input>>(name: N): FieldProps<N> => ({
    ...form.register(name),
    error: form.getFieldState(name, form.formState).error?.message,
  });
  return { ...form, submit, field };
}

/** A field component's input registered with a form, and the message of its error (none while it is valid). */
export type FieldProps<N extends string = string> = UseFormRegisterReturn<N> & { error: string | undefined };
