import { changePlanBody, type SubscriptionAnswer } from "@cove/contract/billing.ts";
import type { PlanChangePreview } from "@cove/contract/billing-account.ts";
import { PLAN_IDS, PLANS, type PlanId } from "@cove/contract/constants.ts";
import { clsx } from "clsx";
import { CreditCard } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import {
  fetchPlanChangePreview,
  useCancelSubscription,
  useChangePlan,
  useResumeSubscription,
  useUpdatePaymentMethod,
} from "../api/billing.api.ts";
import { brandName, longDate, planChangeWording, statusLabel } from "./billing-format.ts";
import { toastBillingFailure } from "./billing-toast.ts";
import { PaymentDialog } from "./payment-dialog.tsx";
import { PaymentForm } from "./payment-form.tsx";

export const CANCEL_QUESTION = "Are you sure you want to cancel your subscription?";
export const CANCEL_FAILED = "Failed to cancel subscription";
export const CHANGE_PLAN_FAILED = "Failed to change plan";

/** With a subscription: the plan, its status (active green, anything else yellow), the next billing date, actions. */
export function CurrentSubscription({ data }: { data: SubscriptionAnswer }) {
  const sub = data.subscription;
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [cardOpen, setCardOpen] = useState(false);
  const [preview, setPreview] = useState<PlanChangePreview | null>(null);
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const changePlan = useChangePlan();
  const updateCard = useUpdatePaymentMethod();
  if (!sub) return null;
  const active = sub.status === "active";

  async function onCancel() {
    try {
      const { message } = await cancel.mutateAsync();
      toast.success(message);
      setConfirmCancel(false);
    } catch (error) {
      toastBillingFailure(CANCEL_FAILED, error);
      setConfirmCancel(false);
    }
  }

  async function onChangePlan(to: PlanId) {
    try {
      toast.success((await changePlan.mutateAsync(to)).message);
    } catch (error) {
      toastBillingFailure(CHANGE_PLAN_FAILED, error);
    }
    setPreview(null);
  }

  return (
    <section aria-labelledby="current-plan" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="current-plan" className="text-sm font-medium text-slate-500">
            Current plan
          </h2>
          <p className="mt-1 text-2xl font-semibold text-slate-900">
            {data.plan_name}{" "}
            <span className="text-base font-normal text-slate-500">${PLANS[data.plan].price}/month</span>
          </p>
          <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="text-slate-500">Status</dt>
            <dd>
              <span
                data-status={sub.status}
                className={clsx(
                  "inline-flex rounded-full px-2 py-0.5 text-xs font-medium",
                  active ? "bg-emerald-100 text-emerald-800" : "bg-yellow-100 text-yellow-800",
                )}
              >
                {statusLabel(sub.status)}
              </span>
              {sub.cancel_at_period_end && (
                <span className="ml-2 inline-flex rounded-full bg-yellow-100 px-2 py-0.5 text-xs font-medium text-yellow-800">
                  Cancels at period end
                </span>
              )}
            </dd>
            <dt className="text-slate-500">{sub.cancel_at_period_end ? "Ends on" : "Next billing date"}</dt>
            <dd className="text-slate-900">{longDate(sub.currentPeriodEnd, data.timezone)}</dd>
            {data.card && (
              <>
                <dt className="text-slate-500">Card</dt>
                <dd className="flex items-center gap-1.5 text-slate-900">
                  <CreditCard className="size-4 text-slate-400" aria-hidden="true" />
                  {brandName(data.card.brand)} ending in {data.card.last4}, expires{" "}
                  {String(data.card.exp_month).padStart(2, "0")}/{data.card.exp_year}
                </dd>
              </>
            )}
          </dl>
        </div>
        <div className="flex flex-col gap-2 sm:items-end">
          <Button variant="secondary" onClick={() => setCardOpen(true)}>
            Update card
          </Button>
          {sub.cancel_at_period_end ? (
            <Button
              pending={resume.isPending}
              onClick={async () => {
                try {
                  toast.success((await resume.mutateAsync()).message);
                } catch (error) {
                  toastBillingFailure("Failed to resume subscription", error);
                }
              }}
            >
              Keep my subscription
            </Button>
          ) : (
            <Button variant="danger" onClick={() => setConfirmCancel(true)}>
              Cancel Subscription
            </Button>
          )}
        </div>
      </div>

      {!sub.cancel_at_period_end && <ChangePlanForm current={data.plan} onPreview={setPreview} />}

      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title={CANCEL_QUESTION}
        description={`You keep full access until ${longDate(sub.currentPeriodEnd, data.timezone)}; nothing more is charged.`}
        confirmLabel="Cancel Subscription"
        tone="danger"
        pending={cancel.isPending}
        onConfirm={onCancel}
      />
      <ConfirmDialog
        open={preview !== null}
        onOpenChange={(open) => !open && setPreview(null)}
        title={preview ? `Change to the ${preview.plan_name} plan?` : ""}
        description={preview ? planChangeWording(preview, data.timezone) : undefined}
        confirmLabel="Change plan"
        pending={changePlan.isPending}
        onConfirm={() => preview && void onChangePlan(preview.plan)}
      />
      <PaymentDialog open={cardOpen} onOpenChange={setCardOpen} title="Update card">
        <PaymentForm
          submitLabel="Save card"
          failure="Payment failed"
          onCancel={() => setCardOpen(false)}
          submit={(paymentMethodId) => updateCard.mutateAsync(paymentMethodId)}
          onSuccess={(answer) => {
            toast.success(answer.message);
            setCardOpen(false);
          }}
        />
      </PaymentDialog>
    </section>
  );
}

/** A change of plan is confirmed first, with what it does to the money (the server's proration): onPreview gets it. */
function ChangePlanForm({ current, onPreview }: { current: PlanId; onPreview: (preview: PlanChangePreview) => void }) {
  const {
    register,
    watch,
    submit,
    formState: { isSubmitting },
  } = useContractForm(changePlanBody, { plan: current });
  const plan = watch("plan");
  const onSubmit = submit(
    [],
    async (body) => onPreview(await fetchPlanChangePreview(body.plan)),
    (error) => toastBillingFailure(CHANGE_PLAN_FAILED, error),
  );
  return (
    <form
      className="mt-5 flex flex-col gap-3 border-t border-slate-100 pt-4 sm:flex-row sm:items-end"
      onSubmit={onSubmit}
    >
      <div className="sm:w-64">
        <SelectField
          label="Change plan"
          options={PLAN_IDS.map((id) => ({ value: id, label: `${PLANS[id].name} ($${PLANS[id].price}/month)` }))}
          {...register("plan")}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={plan === current} pending={isSubmitting}>
        Change plan
      </Button>
    </form>
  );
}
