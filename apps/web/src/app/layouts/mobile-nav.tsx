import { Menu } from "lucide-react";
import { lazy, Suspense, useRef, useState } from "react";
import { buttonClasses } from "../../components/ui/button.tsx";

// The slide-over (and the dialog library under it) loads on the first tap: desktop visits never need it, and it would
// cost every signed-in first visit 13 KB gzip (scripts/size.mjs).
const MobileNavPanel = lazy(() => import("./mobile-nav-panel.tsx"));

/** Below the md breakpoint the sidebar becomes a slide-over opened from the top bar. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        className={buttonClasses("ghost", "icon", "md:hidden")}
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        <Menu className="size-5" aria-hidden="true" />
      </button>
      {loaded && (
        <Suspense fallback={null}>
          <MobileNavPanel open={open} onOpenChange={setOpen} opener={button} />
        </Suspense>
      )}
    </>
  );
}
