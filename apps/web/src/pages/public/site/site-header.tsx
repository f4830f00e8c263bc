import { Menu, X } from "lucide-react";
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { Logo } from "../../../components/ui/logo.tsx";
import { getSession, subscribeSession } from "../../../lib/session-storage.ts";
import { SiteLink, useSitePathname } from "./site-nav.tsx";

const LANDING_PATHS = new Set(["/", "/homepage"]);

function navItems(pathname: string) {
  // On the landing page the section links stay on it (the /homepage address included).
  const section = (id: string) => (LANDING_PATHS.has(pathname) ? `#${id}` : `/#${id}`);
  return [
    { label: "Features", to: section("features") },
    { label: "Pricing", to: section("pricing") },
    { label: "Demo", to: "/demo" },
    { label: "AI Demo", to: "/ai-test" },
    { label: "About", to: "/about" },
  ];
}

/** The top bar of every public page: logo, the site's sections, and sign in / trial (or the dashboard when signed in). */
export function SiteHeader() {
  const pathname = useSitePathname();
  // The stored session is enough to pick the button; the dashboard checks it with the server before showing anything.
  const signedIn = useSyncExternalStore(subscribeSession, getSession, () => null) !== null;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const items = navItems(pathname);

  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);

  const closeMenu = () => setMenuOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-6 px-4 sm:px-6 lg:px-8">
        <SiteLink to="/" aria-label="Cove home" className="shrink-0 rounded-md">
          <Logo />
        </SiteLink>

        <nav aria-label="Main" className="hidden flex-1 md:block">
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.label}>
                <SiteLink
                  to={item.to}
                  aria-current={item.to === pathname ? "page" : undefined}
                  className="rounded-md px-3 py-2 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:text-indigo-700"
                >
                  {item.label}
                </SiteLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ml-auto flex items-center gap-2">
          {signedIn ? (
            <SiteLink to="/dashboard" className={buttonClasses("primary", "sm")}>
              Open dashboard
            </SiteLink>
          ) : (
            <>
              {/* On phones, Sign in lives in the menu. */}
              <span className="hidden sm:contents">
                <SiteLink to="/login" className={buttonClasses("ghost", "sm")}>
                  Sign in
                </SiteLink>
              </span>
              <SiteLink to="/register" className={buttonClasses("primary", "sm")}>
                Start free trial
              </SiteLink>
            </>
          )}
          <button
            ref={toggleRef}
            type="button"
            onClick={() => setMenuOpen((open) => !open)}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            className={buttonClasses("ghost", "icon", "md:hidden")}
          >
            {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
          </button>
        </div>
      </div>

      <nav id={menuId} aria-label="Main" hidden={!menuOpen} className="border-t border-slate-200 bg-white md:hidden">
        <ul className="space-y-1 px-4 py-3">
          {items.map((item) => (
            <li key={item.label}>
              <SiteLink
                to={item.to}
                onClick={closeMenu}
                aria-current={item.to === pathname ? "page" : undefined}
                className="block rounded-md px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100 aria-[current=page]:text-indigo-700"
              >
                {item.label}
              </SiteLink>
            </li>
          ))}
          <li className="border-t border-slate-200 pt-2">
            {signedIn ? (
              <SiteLink
                to="/dashboard"
                onClick={closeMenu}
                className="block rounded-md px-3 py-2.5 text-base font-medium text-indigo-700 hover:bg-slate-100"
              >
                Open dashboard
              </SiteLink>
            ) : (
              <SiteLink
                to="/login"
                onClick={closeMenu}
                className="block rounded-md px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100"
              >
                Sign in
              </SiteLink>
            )}
          </li>
        </ul>
      </nav>
    </header>
  );
}
