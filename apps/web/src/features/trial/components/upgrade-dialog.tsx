import { PLAN_IDS, PLANS, type PlanId } from "@cove/contract/constants.ts";
import { useState } from "react";
import { toast } from "sonner";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { PaymentDialog, PaymentForm, useConvertTrial, useReloadBilling } from "../../billing/index.ts";

export const UPGRADED = "Successfully upgraded to paid plan!";
export const CONVERSION_FAILED = "Conversion failed";

/** The trial banner's conversion (POST /trial/convert): a plan, Starter at $29/month unless another is chosen, and a card. */
export function UpgradeDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [plan, setPlan] = useState<PlanId>("starter");
  const convert = useConvertTrial();
  const reload = useReloadBilling();
  return (
    <PaymentDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Upgrade to a paid plan"
      description={`${PLANS[plan].name}: $${PLANS[plan].price}/month. Your data and settings stay as they are.`}
    >
      <div className="mb-4">
        <SelectField
          label="Plan"
          value={plan}
          onChange={(e) => setPlan(e.target.value as PlanId)}
          options={PLAN_IDS.map((id) => ({ value: id, label: `${PLANS[id].name} ($${PLANS[id].price}/month)` }))}
        />
      </div>
      <PaymentForm
        submitLabel="Upgrade now"
        failure={CONVERSION_FAILED}
        onCancel={() => onOpenChange(false)}
        submit={(paymentMethodId) => convert.mutateAsync({ plan, paymentMethodId })}
        onSuccess={() => {
          toast.success(UPGRADED);
          onOpenChange(false);
          void reload();
        }}
      />
    </PaymentDialog>
  );
}
