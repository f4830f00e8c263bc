import type { PortalCustomer, PortalOrganization } from "@cove/contract/portal.ts";
import { Building2, LogOut } from "lucide-react";

/**
 * The organization's logo on a white tile (a logo made for white pages stays legible on any brand colour), or its
 * initial there in its colour. The name beside it says whose it is, so the picture itself is decorative.
 */
export function OrganizationMark({ organization }: { organization: PortalOrganization }) {
  const { logo_url } = organization.branding;
  if (logo_url) {
    return (
      <span className="flex h-10 max-w-40 shrink-0 items-center rounded-md bg-white p-1 shadow-sm">
        <img src={logo_url} alt="" className="h-8 max-w-38 object-contain" />
      </span>
    );
  }
  return (
    <span
      aria-hidden="true"
      className="flex size-10 shrink-0 items-center justify-center rounded-md bg-white text-base font-semibold text-[var(--portal-accent-text,#4f46e5)] shadow-sm"
    >
      {organization.name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

/**
 * Spec: the portal's header, with the customer's name and company. It is the organization's: a band in its brand
 * colour, its logo and name, and text in the ink that reads on that colour.
 */
export function PortalHeader({
  organization,
  customer,
  onSignOut,
  onEditDetails,
}: {
  organization: PortalOrganization;
  customer?: PortalCustomer;
  /** Absent in the demo: its customer is shared and stays signed in. */
  onSignOut?: () => void;
  onEditDetails?: () => void;
}) {
  return (
    <header
      data-testid="portal-header"
      className="bg-[var(--portal-accent,#4f46e5)] text-[var(--portal-accent-ink,#fff)]"
    >
      <div className="mx-auto flex min-h-16 w-full max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <OrganizationMark organization={organization} />
          <div className="min-w-0">
            <p className="truncate font-semibold">{organization.name}</p>
            <p className="text-xs opacity-80">Customer support</p>
          </div>
        </div>
        {customer && (
          <div className="flex min-w-0 items-center gap-2">
            <div className="min-w-0 text-right">
              {onEditDetails ? (
                <button
                  type="button"
                  onClick={onEditDetails}
                  className="block max-w-56 truncate rounded-sm text-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
                  title="Edit your name and company"
                >
                  {customer.name}
                </button>
              ) : (
                <p className="max-w-56 truncate text-sm font-medium">{customer.name}</p>
              )}
              {customer.company && (
                <p className="flex max-w-56 items-center justify-end gap-1 truncate text-xs opacity-80">
                  <Building2 className="size-3 shrink-0" aria-hidden="true" />
                  <span className="truncate">{customer.company}</span>
                </p>
              )}
            </div>
            {onSignOut && (
              <button
                type="button"
                onClick={onSignOut}
                className="inline-flex h-8 items-center gap-1.5 rounded-md border border-current/40 px-3 text-sm font-medium hover:bg-current/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
              >
                <LogOut className="size-4" aria-hidden="true" />
                Sign out
              </button>
            )}
          </div>
        )}
      </div>
    </header>
  );
}
