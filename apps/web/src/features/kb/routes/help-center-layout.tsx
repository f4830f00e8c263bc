import { brandPalette } from "@cove/contract/brand-colors.ts";
import { helpCenterPath } from "@cove/contract/kb.ts";
import { LifeBuoy } from "lucide-react";
import type { CSSProperties } from "react";
import { Link, Outlet, useParams } from "react-router";
import { FullPageSpinner } from "../../../components/ui/spinner.tsx";
import { SessionQueryProvider } from "../../../lib/query-provider.tsx";
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

/**
 * The organization's brand as CSS variables: --brand fills the header and the search band, --brand-ink is the text on
 * it (black or white, whichever reads better), --brand-text the colour as text on white (links), darkened when the
 * brand colour is too light to read there. Only a plain #rrggbb gets in.
 */
function brandVariables(color: string): CSSProperties {
  const palette = brandPalette(color);
  return { "--brand": palette.color, "--brand-ink": palette.ink, "--brand-text": palette.text } as CSSProperties;
}

function HelpFrame() {
  const { orgSlug = "" } = useParams();
  const center = useHelpCenter(orgSlug);
  const branding = useBranding(orgSlug);
  const brand = branding.data;
  const name = center.data?.organization.name ?? brand?.name;
  // The header waits for the organization's colours (a small answer, asked beside the articles) rather than show
  // Cove's for a moment; an unknown organization gets the default frame and the page says it is not found.
  if (branding.isPending) return <FullPageSpinner label="Loading the help center" />;
  return (
    <div
      className="flex min-h-screen flex-col bg-slate-50 text-slate-900"
      style={brand ? brandVariables(brand.brand_color) : undefined}
      data-brand-color={brand ? brandPalette(brand.brand_color).color : undefined}
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header
        data-testid="help-center-header"
        className="border-b border-black/10 bg-(--brand,var(--color-indigo-700)) text-(--brand-ink,var(--color-white))"
      >
        <div className="mx-auto flex min-h-16 w-full max-w-5xl items-center gap-3 px-4 py-2 sm:px-6">
          <Link
            to={helpCenterPath(orgSlug)}
            className="flex min-w-0 items-center gap-3 rounded-md font-semibold hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
          >
            {brand?.logo_url ? (
              // On a white tile: a logo made for white pages stays legible on any brand colour.
              <span className="flex h-10 shrink-0 items-center rounded-md bg-white p-1 shadow-sm">
                <img src={brand.logo_url} alt={`${name ?? brand.name} logo`} className="h-8 max-w-32 object-contain" />
              </span>
            ) : (
              <LifeBuoy className="size-6 shrink-0" aria-hidden="true" />
            )}
            <span className="truncate">{name ?? "Help Center"}</span>
          </Link>
          {name && <span className="hidden text-sm opacity-80 sm:inline">Help Center</span>}
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
