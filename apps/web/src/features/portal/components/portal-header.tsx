import type { PortalCustomer, PortalOrganization } from "@cove/contract/portal.ts";
import { Building2, LogOut } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";

/** The organization's logo, or its initial in its colour. */
export function OrganizationMark({ organization }: { organization: PortalOrganization }) {
  const { logo_url } = organization.branding;
  if (logo_url) return <img src={logo_url} alt="" className="size-9 shrink-0 rounded-md object-contain" />;
  return (
    <span
      aria-hidden="true"
      className="flex size-9 shrink-0 items-center justify-center rounded-md bg-[var(--portal-accent,#4f46e5)] text-base font-semibold text-white"
    >
      {organization.name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}

/** Spec: the portal's header, with the customer's name and company. */
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
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex min-h-16 w-full max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <OrganizationMark organization={organization} />
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900">{organization.name}</p>
            <p className="text-xs text-slate-500">Customer support</p>
          </div>
        </div>
        {customer && (
          <div className="flex min-w-0 items-center gap-2">
            <div className="min-w-0 text-right">
              {onEditDetails ? (
                <button
                  type="button"
                  onClick={onEditDetails}
                  className="block max-w-56 truncate text-sm font-medium text-slate-900 hover:underline"
                  title="Edit your name and company"
                >
                  {customer.name}
                </button>
              ) : (
                <p className="max-w-56 truncate text-sm font-medium text-slate-900">{customer.name}</p>
              )}
              {customer.company && (
                <p className="flex max-w-56 items-center justify-end gap-1 truncate text-xs text-slate-500">
                  <Building2 className="size-3 shrink-0" aria-hidden="true" />
                  <span className="truncate">{customer.company}</span>
                </p>
              )}
            </div>
            {onSignOut && (
              <Button variant="ghost" size="sm" onClick={onSignOut}>
                <LogOut className="size-4" aria-hidden="true" />
                Sign out
              </Button>
            )}
          </div>
        )}
      </div>
    </header>
  );
}
