import { type ComponentType, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { type SiteNav, SiteNavContext } from "./site-nav.tsx";

const loadApp = () => import("../../../app/start-app.tsx");

/**
 * Shows a public page on its own: React without the router or any signed-in code. The first link the visitor follows
 * to another page hands the screen over to the app (router, session, toasts), which then runs as usual; the link
 * fetches the app's code as soon as the pointer or focus reaches it.
 */
export function startStandalone(container: HTMLElement, Page: ComponentType): void {
  const root = createRoot(container);
  let handingOver = false;

  /** The app's address for a link, or null when the browser handles it alone. */
  function appTarget(to: string): URL | null {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin) return null;
    const samePage = url.pathname === window.location.pathname && url.search === window.location.search;
    // A jump to an anchor on this page: the browser scrolls, moves focus and keeps the history itself.
    return samePage && url.hash ? null : url;
  }

  const nav: SiteNav = {
    pathname: window.location.pathname,
    navigate(to) {
      const url = appTarget(to);
      if (!url) return false;
      if (!handingOver) {
        handingOver = true;
        loadApp()
          .then((app) => app.takeOver(root, `${url.pathname}${url.search}${url.hash}`))
          // Without the app's code (offline, a new version deployed) a full page load still gets the visitor there.
          .catch(() => window.location.assign(url.href));
      }
      return true;
    },
    prefetch(to) {
      if (appTarget(to)) void loadApp();
    },
  };

  root.render(
    <StrictMode>
      <SiteNavContext value={nav}>
        <Page />
      </SiteNavContext>
    </StrictMode>,
  );
}
