import { helpCenterPath } from "@cove/contract/kb.ts";
import { LifeBuoy } from "lucide-react";
import type { CSSProperties } from "react";
import { Link, Outlet, useParams } from "react-router";
import { SessionQueryProvider } from "../../../app/query-provider.tsx";
import { useBranding } from "../../settings/index.ts";
import { useHelpCenter } from "../api/kb.queries.ts";

/** The frame of an organization's public help center: its name, the page, and a small footer. No sign-in needed. */
export function HelpCenterLayout() {
  return (
    // Visitors have no session; the help center keeps its own query cache.
    <SessionQueryProvider>
      <HelpFrame />
    </SessionQueryProvider>
  );
}

function HelpFrame() {
  const { orgSlug = "" } = useParams();
  const center = useHelpCenter(orgSlug);
  const brand = useBranding(orgSlug).data;
  const name = center.data?.organization.name;
  return (
    // The organization's brand colour, for the header's bar and the help center's accents.
    <div
      className="flex min-h-screen flex-col bg-slate-50 text-slate-900"
      style={brand ? ({ "--brand": brand.brand_color } as CSSProperties) : undefined}
      data-brand-color={brand?.brand_color}
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="border-t-4 border-b border-slate-200 border-t-(--brand,var(--color-indigo-600)) bg-white">
        <div className="mx-auto flex h-16 w-full max-w-5xl items-center gap-3 px-4 sm:px-6">
          <Link
            to={helpCenterPath(orgSlug)}
            className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-slate-900 hover:text-indigo-700"
          >
            {brand?.logo_url ? (
              <img src={brand.logo_url} alt={`${name ?? brand.name} logo`} className="h-8 max-w-32 object-contain" />
            ) : (
              <LifeBuoy className="size-6 shrink-0 text-(--brand,var(--color-indigo-600))" aria-hidden="true" />
            )}
            <span className="truncate">{name ?? "Help Center"}</span>
          </Link>
          {name && <span className="hidden text-sm text-slate-500 sm:inline">Help Center</span>}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-2 px-4 py-6 text-sm text-slate-500 sm:px-6">
          <span>{name ? `© ${name}` : ""}</span>
          <Link to="/" className="hover:text-slate-700">
            Powered by Cove
          </Link>
        </div>
      </footer>
    </div>
  );
}
