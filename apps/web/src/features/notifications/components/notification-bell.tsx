import { Bell } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClasses } from "../../../components/ui/button.tsx";

/**
 * The bell and its panel; the real notification feed arrives in a later issue. A plain disclosure rather than a menu
 * library: the panel holds no actions yet, and the shell's bundle stays small.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-label="Notifications"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        className={buttonClasses("ghost", "icon")}
      >
        <Bell className="size-5" aria-hidden="true" />
      </button>
      {open && (
        <section
          id={panelId}
          aria-label="Notifications"
          className="absolute right-0 z-50 mt-2 w-72 max-w-[calc(100vw-1.5rem)] rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
        >
          <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
          <p className="mt-2 text-sm text-slate-500">No notifications yet</p>
        </section>
      )}
    </div>
  );
}
