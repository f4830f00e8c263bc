import type { ComponentProps, ReactNode } from "react";

interface CheckboxFieldProps extends Omit<ComponentProps<"input">, "type"> {
  label: string;
  /** What ticking it does, in a line below the label. */
  hint: ReactNode;
}

/** A checkbox with its label and a line that says what it does; the whole block is the click target. */
export function CheckboxField({ label, hint, ...props }: CheckboxFieldProps) {
  return (
    <label className="flex items-start gap-3">
      <input type="checkbox" className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600" {...props} />
      <span>
        <span className="block text-sm font-medium text-slate-800">{label}</span>
        <span className="block text-xs text-slate-500">{hint}</span>
      </span>
    </label>
  );
}
