import { PLANS, type PlanId } from "@cove/contract/constants.ts";
import { AlertTriangle, Clock, Lock } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { TitledSection } from "../../../components/ui/titled-section.tsx";
import { useReloadBilling, useSubscribe, useSubscription } from "../api/billing.api.ts";
import { BillingDetailsForm } from "../components/billing-details-form.tsx";
import { trialEndWording } from "../components/billing-format.ts";
import { CurrentSubscription } from "../components/current-subscription.tsx";
import { InvoicesTable } from "../components/invoices-table.tsx";
import { PaymentDialog } from "../components/payment-dialog.tsx";
import { PaymentForm } from "../components/payment-form.tsx";
import { PlanCards } from "../components/plan-cards.tsx";

export const BACKEND_ISSUE_TITLE = "Backend Connection Issue";
export const BACKEND_ISSUE_TEXT =
  "Subscription management is currently experiencing connection issues. The payment interface is fully functional for testing purposes.";
export const SUBSCRIBED = "Subscription created successfully!";
export const SUBSCRIBE_FAILED = "Failed to create subscription";

/** /billing (admins): the subscription when there is one, else the plans and the card form (docs/product.md, "Screens"). */
export function BillingRoute() {
  const subscription = useSubscription();
  const subscribe = useSubscribe();
  const reload = useReloadBilling();
  const [selected, setSelected] = useState<PlanId | null>(null);
  const data = subscription.data;
  // While the trial runs, the page says when it ends (once it has ended, the read-only notice says so instead).
  const trialEnds =
    data?.status === "trialing" && data.trial_ends_at && !data.access.read_only
      ? trialEndWording(data.trial_ends_at, data.timezone)
      : null;

  return (
    <div className="space-y-6">
      <PageHeader title="Billing" lead="Your subscription: plan, payment method and invoices." />

      {subscription.isError && (
        <div
          role="alert"
          className="flex gap-3 rounded-lg border border-yellow-200 bg-yellow-50 p-4 text-sm text-yellow-800"
        >
          <AlertTriangle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p>
            <strong className="font-semibold">{BACKEND_ISSUE_TITLE}:</strong> {BACKEND_ISSUE_TEXT}
          </p>
        </div>
      )}

      {data?.access.message && (
        <div
          role="status"
          className={
            data.access.read_only
              ? "flex gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
              : "flex gap-3 rounded-lg border border-orange-200 bg-orange-50 p-4 text-sm text-orange-800"
          }
        >
          <Lock className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p>{data.access.message}</p>
        </div>
      )}

      {trialEnds && (
        <p
          role="status"
          className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700"
        >
          <Clock className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
          <span>
            {trialEnds} Choose a plan before then to keep full access; nothing is charged until you subscribe.
          </span>
        </p>
      )}

      {subscription.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
          <Spinner /> Loading your subscription...
        </p>
      ) : data?.subscription ? (
        <CurrentSubscription data={data} />
      ) : (
        <TitledSection
          titleId="choose-plan"
          title={data?.status === "trialing" ? "Choose a plan to keep Cove after your trial" : "Choose a plan"}
          className="space-y-3"
          titleClassName="text-base font-semibold text-slate-900"
        >
          <PlanCards
            selected={selected}
            current={data?.status === "trialing" ? data.plan : null}
            onSelect={setSelected}
          />
        </TitledSection>
      )}

      <InvoicesTable />

      {!subscription.isError && <BillingDetailsForm />}

      <PaymentDialog
        open={selected !== null}
        onOpenChange={(open) => !open && setSelected(null)}
        title={selected ? `Subscribe to ${PLANS[selected].name}` : ""}
        description={selected ? `$${PLANS[selected].price}/month, billed monthly. Cancel any time.` : undefined}
      >
        {selected && (
          <PaymentForm
            submitLabel="Subscribe"
            failure={SUBSCRIBE_FAILED}
            onCancel={() => setSelected(null)}
            submit={(paymentMethodId) => subscribe.mutateAsync({ plan: selected, paymentMethodId })}
            onSuccess={() => {
              toast.success(SUBSCRIBED);
              setSelected(null);
              void reload();
            }}
          />
        )}
      </PaymentDialog>
    </div>
  );
}
