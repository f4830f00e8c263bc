import type { PortalOrganization } from "@cove/contract/portal.ts";
import type { ReactNode } from "react";
import { brandStyle } from "./portal-brand.ts";
import { PortalHeader } from "./portal-header.tsx";
import { PortalFooter } from "./signed-in-portal.tsx";

/** The portal's frame before sign-in (and on the survey page): the organization's header, the page, the footer. */
export function PortalFrame({ organization, children }: { organization: PortalOrganization; children: ReactNode }) {
  return (
    <div style={brandStyle(organization.branding)} className="flex min-h-screen flex-col bg-slate-50">
      <PortalHeader organization={organization} />
      <main id="main" tabIndex={-1} className="flex-1 px-4 py-10 focus:outline-none sm:px-6 sm:py-16">
        {children}
      </main>
      <PortalFooter name={organization.name} />
    </div>
  );
}
