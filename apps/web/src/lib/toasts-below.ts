import { type RefObject, useEffect } from "react";

/**
 * The CSS variable a phone's toasts read (app/providers.tsx): how far down the screen, in px, the rows of actions at
 * the top of the page reach while they are in view, so that a toast sits below them instead of over them.
 */
export const TOASTS_BELOW = "--toasts-below";

const rows = new Set<HTMLElement>();
let frame = 0;
let written = "";

function measure() {
  frame = 0;
  let reach = 0;
  for (const row of rows) {
    const box = row.getBoundingClientRect();
    // Only a row near the top of the screen: a toast is never pushed down the screen by one further down.
    if (box.top < window.innerHeight / 3) reach = Math.max(reach, box.bottom);
  }
  const value = `${Math.max(0, Math.round(reach))}px`;
  if (value === written) return;
  written = value;
  document.documentElement.style.setProperty(TOASTS_BELOW, value);
}

/** Once a frame at most, however many scroll events arrive. */
function schedule() {
  if (frame === 0) frame = requestAnimationFrame(measure);
}

/**
 * Keeps a phone's toasts below `row` (a page's heading and actions, a ticket's "Back to List" and "Reply") while it is
 * in view at the top of the screen; as it scrolls away, they move back up under the top bar.
 */
export function useToastsBelow(row: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = row.current;
    if (!el) return;
    rows.add(el);
    if (rows.size === 1) {
      window.addEventListener("scroll", schedule, { passive: true });
      window.addEventListener("resize", schedule);
    }
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(schedule) : null;
    observer?.observe(el);
    measure();
    return () => {
      observer?.disconnect();
      rows.delete(el);
      if (rows.size > 0) {
        measure();
        return;
      }
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      if (frame !== 0) cancelAnimationFrame(frame);
      frame = 0;
      written = "";
      document.documentElement.style.removeProperty(TOASTS_BELOW);
    };
  }, [row]);
}
