import { clsx } from "clsx";

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <span role={label ? "status" : undefined} className="inline-flex items-center">
      <span
        aria-hidden="true"
        className={clsx(
          "inline-block size-4 animate-spin rounded-full border-2 border-current border-r-transparent",
          className,
        )}
      />
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

export function FullPageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 text-indigo-600">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
