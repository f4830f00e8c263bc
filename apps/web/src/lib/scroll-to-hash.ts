import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * A link with a hash (`/automation#business-hours`) lands on that section: once the page's data has loaded (`ready`,
 * so nothing above it moves after), the section is scrolled to the top of the view and its heading takes the focus,
 * so a keyboard or screen-reader user starts there too. Once per address: scrolling on afterwards is the person's.
 */
export function useScrollToHash(ready: boolean) {
  const { key, hash } = useLocation();
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || !hash || done.current === key) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    done.current = key;
    const heading = target.querySelector<HTMLElement>("h1, h2, h3, legend") ?? target;
    if (heading.tabIndex < 0) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    target.scrollIntoView?.({ block: "start" });
  }, [ready, hash, key]);
}
