import { useMemo } from "react";
import { Outlet, useLocation, useNavigate } from "react-router";
import { type SiteNav, SiteNavContext } from "./site-nav.tsx";

/** Layout route of the public pages inside the app: their links navigate through the router. */
export function RouterSite() {
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const nav = useMemo<SiteNav>(
    () => ({
      pathname,
      navigate(to) {
        const url = new URL(to, window.location.href);
        if (url.origin !== window.location.origin) return false;
        // Anchors go through the router too: a jump the router did not make would be undone by its scroll restoration.
        void Promise.resolve(navigate(`${url.pathname}${url.search}${url.hash}`)).then(() => {
          // Like the browser's own anchor jump, move keyboard focus to the target (it scrolls there already).
          if (url.hash) document.getElementById(decodeURIComponent(url.hash.slice(1)))?.focus({ preventScroll: true });
        });
        return true;
      },
    }),
    [navigate, pathname],
  );

  return (
    <SiteNavContext value={nav}>
      <Outlet />
    </SiteNavContext>
  );
}
