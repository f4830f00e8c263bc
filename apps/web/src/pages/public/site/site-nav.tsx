import { type ComponentProps, createContext, type MouseEvent, use } from "react";

/**
 * How links on the public pages navigate. The pages render in two settings: on their own when a visitor arrives on
 * them (standalone.tsx, no router loaded), and inside the app's router once the app runs (router-site.tsx). Each
 * setting provides one of these; the pages only use <SiteLink>.
 */
export interface SiteNav {
  /** The path of the page on screen. */
  pathname: string;
  /**
   * Follows an in-site link such as "/register?plan=growth", "/#pricing" or "#contact-us". Returns false to leave it
   * to the browser (e.g. a jump to an anchor on the same page).
   */
  navigate: (to: string) => boolean;
  /** The visitor shows intent (pointer over or focus on a link to `to`): a chance to fetch the next page's code. */
  prefetch?: (to: string) => void;
}

export const SiteNavContext = createContext<SiteNav | null>(null);

/** The path of the page on screen, also outside any provider (tests, plain rendering). */
export function useSitePathname(): string {
  return use(SiteNavContext)?.pathname ?? window.location.pathname;
}

function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

interface SiteLinkProps extends Omit<ComponentProps<"a">, "href"> {
  /** A path within the site, optionally with query and hash, or a bare "#anchor" on the current page. */
  to: string;
}

/** A real <a href> (open in new tab, copy link and crawlers all work) that navigates within the app when it can. */
export function SiteLink({ to, onClick, onPointerEnter, onFocus, target, ...props }: SiteLinkProps) {
  const nav = use(SiteNavContext);
  return (
    <a
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!nav || event.defaultPrevented || !isPlainLeftClick(event) || (target && target !== "_self")) return;
        if (nav.navigate(to)) event.preventDefault();
      }}
      onPointerEnter={(event) => {
        onPointerEnter?.(event);
        nav?.prefetch?.(to);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        nav?.prefetch?.(to);
      }}
      {...props}
    />
  );
}
