import { clsx } from "clsx";

export function Logo({ className }: { className?: string }) {
  return (
    <span className={clsx("inline-flex items-center gap-2 font-semibold text-slate-900", className)}>
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#4f46e5" />
        <path
          d="M8 19c2.5 3 5 4.5 8 4.5s5.5-1.5 8-4.5"
          fill="none"
          stroke="#fff"
          strokeWidth="2.5"
          strokeLinecap="round"
        />
        <circle cx="16" cy="12" r="3.5" fill="#fff" />
      </svg>
      <span className="text-lg tracking-tight">Cove</span>
    </span>
  );
}
