import { clsx } from "clsx";

type CtaVariant = "primary" | "secondary" | "inverse" | "outline-inverse";

const variants: Record<CtaVariant, string> = {
  primary: "bg-indigo-600 text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-indigo-500",
  secondary:
    "border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-indigo-500",
  // On indigo or dark backgrounds.
  inverse: "bg-white text-indigo-700 shadow-sm hover:bg-indigo-50 focus-visible:outline-white",
  "outline-inverse": "border border-white/50 text-white hover:bg-white/10 focus-visible:outline-white",
};

const sizes = {
  lg: "h-12 gap-2 px-6 text-base",
  md: "h-11 gap-2 px-5 text-sm",
};

/**
 * The public pages' calls to action: larger than the app's buttons (components/ui/button.tsx), in their own classes so
 * that no utility has to override another.
 */
export function ctaClasses(variant: CtaVariant, size: keyof typeof sizes = "lg", className?: string): string {
  return clsx(
    "inline-flex items-center justify-center rounded-md font-semibold transition-colors",
    "focus-visible:outline-2 focus-visible:outline-offset-2",
    variants[variant],
    sizes[size],
    className,
  );
}
