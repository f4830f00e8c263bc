import { clsx } from "clsx";
import { SlidersHorizontal } from "lucide-react";
import { type ReactNode, useId, useState } from "react";

/**
 * The filters of a list beside its search box: on a phone they fold behind a "Filters" button (with how many are in
 * use), so the list starts on the first screen; from the small breakpoint up they are simply shown, in the parent grid.
 */
export function PhoneFilters({ active, children }: { active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-10 items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 sm:hidden"
      >
        <SlidersHorizontal className="size-4" aria-hidden="true" />
        {open ? "Hide filters" : active > 0 ? `Filters (${active})` : "Filters"}
      </button>
      <div id={id} className={clsx(open ? "contents" : "hidden", "sm:contents")}>
        {children}
      </div>
    </>
  );
}
