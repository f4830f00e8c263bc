import type { ComponentType } from "react";

/** Loads a public page's component; the same modules are the router's lazy routes, so the chunks are shared. */
export type PageLoader = () => Promise<ComponentType>;

const landing: PageLoader = async () => (await import("../landing/landing-page.tsx")).LandingPage;

/**
 * The marketing pages, which a first visit shows without the router (see main.tsx). This module is part of the entry
 * chunk: keep it to the table.
 */
const STANDALONE_PAGES: Record<string, PageLoader> = {
  "/": landing,
  "/homepage": landing,
  "/about": async () => (await import("../about/about-page.tsx")).AboutPage,
  "/terms": async () => (await import("../legal/terms-page.tsx")).TermsPage,
  "/privacy": async () => (await import("../legal/privacy-page.tsx")).PrivacyPage,
  "/demo": async () => (await import("../demo/demo-page.tsx")).DemoPage,
  "/ai-test": async () => (await import("../ai-test/ai-test-page.tsx")).AiTestPage,
};

export function standalonePage(pathname: string): PageLoader | undefined {
  // "/about/" is the same page as "/about", as in the router.
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return Object.hasOwn(STANDALONE_PAGES, path) ? STANDALONE_PAGES[path] : undefined;
}
