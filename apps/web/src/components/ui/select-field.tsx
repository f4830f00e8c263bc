import { clsx } from "clsx";
import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { FieldShell, inputClasses, useControlProps } from "./text-field.tsx";

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps extends ComponentProps<"select"> {
  label: string;
  options: readonly SelectOption[];
  hint?: string;
  error?: string;
}

/**
 * A labelled native select: the phone's own picker on touch screens, full keyboard support, and nothing to download.
 */
export function SelectField({ label, options, hint, error, id, className, ...props }: SelectFieldProps) {
  const control = useControlProps(id, hint, error);
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      <div className="relative">
        <select {...control} className={clsx(inputClasses, "appearance-none pr-9", className)} {...props}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500"
          aria-hidden="true"
        />
      </div>
    </FieldShell>
  );
}
