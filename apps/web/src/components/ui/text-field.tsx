import { clsx } from "clsx";
import { type ComponentProps, type ReactNode, useId } from "react";

export const inputClasses = clsx(
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm",
  "placeholder:text-slate-400 focus:border-indigo-500 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-500/40",
  "disabled:cursor-not-allowed disabled:bg-slate-100 aria-invalid:border-red-500",
);

interface FieldShellProps {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}

/** Label, input and its hint/error, tied together so screen readers announce them with the input. */
export function FieldShell({ id, label, hint, error, children }: FieldShellProps) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

export function describedBy(id: string, hint?: string, error?: string): string | undefined {
  if (error) return `${id}-error`;
  if (hint) return `${id}-hint`;
  return undefined;
}

/**
 * What ties a field's control to its FieldShell: its id (the one given, or a generated one), whether it is invalid,
 * and which of its hint or error describes it.
 */
export function useControlProps(givenId: string | undefined, hint?: string, error?: string) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  return { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(id, hint, error) };
}

interface TextFieldProps extends ComponentProps<"input"> {
  label: string;
  hint?: string;
  error?: string;
}

export function TextField({ label, hint, error, id, className, ...props }: TextFieldProps) {
  const control = useControlProps(id, hint, error);
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      <input {...control} className={clsx(inputClasses, className)} {...props} />
    </FieldShell>
  );
}

interface TextAreaFieldProps extends ComponentProps<"textarea"> {
  label: string;
  hint?: string;
  error?: string;
}

/** A labelled text area, its hint and error tied to it as in TextField. */
export function TextAreaField({ label, hint, error, id, className, ...props }: TextAreaFieldProps) {
  const control = useControlProps(id, hint, error);
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      <textarea {...control} className={clsx(inputClasses, className)} {...props} />
    </FieldShell>
  );
}

/**
 * A labelled email address ("Email" unless named otherwise): the type, keyboard and autofill of one
 * (`autoComplete="off"` where it is someone else's).
 */
export function EmailField({
  label = "Email",
  autoComplete = "email",
  ...props
}: Omit<TextFieldProps, "label" | "type"> & { label?: string }) {
  return <TextField label={label} type="email" inputMode="email" autoComplete={autoComplete} {...props} />;
}
