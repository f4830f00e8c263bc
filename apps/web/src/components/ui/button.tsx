import { clsx } from "clsx";
import type { ComponentProps } from "react";
import { Spinner } from "./spinner.tsx";

type Variant = "primary" | "secondary" | "ghost" | "danger" | "accent";
type Size = "sm" | "md" | "icon";

const indigoOutline = "focus-visible:outline-indigo-500";

const variants: Record<Variant, string> = {
  primary: `bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 disabled:bg-indigo-400 ${indigoOutline}`,
  secondary: `border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50 disabled:text-slate-400 ${indigoOutline}`,
  ghost: `text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-400 ${indigoOutline}`,
  danger: `bg-red-600 text-white shadow-sm hover:bg-red-500 disabled:bg-red-400 ${indigoOutline}`,
  // The portal's buttons, in the organization's colour with the ink that reads on it (portal-brand.ts sets both).
  accent:
    "bg-[var(--portal-accent,#4f46e5)] text-[var(--portal-accent-ink,#fff)] shadow-sm hover:opacity-90 disabled:opacity-60 focus-visible:outline-[var(--portal-accent-text,#4f46e5)]",
};

const sizes: Record<Size, string> = {
  sm: "h-8 gap-1.5 px-3 text-sm",
  md: "h-10 gap-2 px-4 text-sm",
  icon: "size-10 justify-center",
};

/** Shared classes so links styled as buttons look the same as buttons. */
export function buttonClasses(variant: Variant = "primary", size: Size = "md", className?: string): string {
  return clsx(
    "inline-flex items-center justify-center rounded-md font-medium transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2",
    "disabled:cursor-not-allowed",
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: Variant;
  size?: Size;
  /** Shows a spinner and blocks further clicks while a request runs. */
  pending?: boolean;
}

export function Button({
  variant = "primary",
  size = "md",
  pending = false,
  disabled,
  className,
  children,
  type = "button",
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={buttonClasses(variant, size, className)}
      {...props}
    >
      {pending && <Spinner />}
      {children}
    </button>
  );
}
