import { clsx } from "clsx";
import { Eye, EyeOff } from "lucide-react";
import { type ComponentProps, useState } from "react";
import { FieldShell, inputClasses, useControlProps } from "./text-field.tsx";

interface PasswordFieldProps extends Omit<ComponentProps<"input">, "type"> {
  label: string;
  hint?: string;
  error?: string;
}

export function PasswordField({ label, hint, error, id, className, ...props }: PasswordFieldProps) {
  const control = useControlProps(id, hint, error);
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={control.id} label={label} hint={hint} error={error}>
      <div className="relative">
        <input
          {...control}
          type={visible ? "text" : "password"}
          className={clsx(inputClasses, "pr-10", className)}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-slate-500 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
        </button>
      </div>
    </FieldShell>
  );
}
