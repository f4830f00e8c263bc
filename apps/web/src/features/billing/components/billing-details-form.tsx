import { type BillingDetails, type BillingDetailsBody, billingDetailsBody } from "@cove/contract/billing-account.ts";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { CARD, TitledSection } from "../../../components/ui/titled-section.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { useBillingDetails, useSaveBillingDetails } from "../api/billing.api.ts";

export const DETAILS_SAVED = "Billing details saved.";

const FIELDS: {
  name: keyof BillingDetails & keyof BillingDetailsBody;
  label: string;
  max: number;
  hint?: string;
  autoComplete?: string;
}[] = [
  { name: "name", label: "Billing name", max: 200, hint: "The company name invoices are addressed to." },
  { name: "address_line1", label: "Address", max: 200, autoComplete: "address-line1" },
  { name: "address_line2", label: "Address line 2", max: 200, autoComplete: "address-line2" },
  { name: "city", label: "City", max: 100, autoComplete: "address-level2" },
  { name: "region", label: "State or region", max: 100, autoComplete: "address-level1" },
  { name: "postal_code", label: "Postal code", max: 20, autoComplete: "postal-code" },
  {
    name: "country",
    label: "Country code",
    max: 2,
    hint: "Two letters, such as US, GB or DE.",
    autoComplete: "country",
  },
  { name: "tax_id", label: "Tax ID", max: 50, hint: "A VAT or tax number, if your organization has one." },
];

/** Who the invoices are addressed to: printed on every invoice's PDF. */
export function BillingDetailsForm() {
  const details = useBillingDetails();
  if (!details.data) return null;
  const { saved, details: current } = details.data;
  return (
    <TitledSection
      titleId="billing-details"
      title="Billing details"
      className={CARD}
      titleClassName="text-sm font-semibold text-slate-900"
    >
      <p className="mt-1 text-sm text-slate-600">
        {saved
          ? "Printed on every invoice."
          : "Printed on every invoice. Until you save them, invoices show your organization's name and your card's billing address."}
      </p>
      {/* Keyed by what was loaded, so a reload after saving shows the saved values. */}
      <DetailsForm key={JSON.stringify(current)} current={current} />
    </TitledSection>
  );
}

function DetailsForm({ current }: { current: BillingDetails }) {
  const save = useSaveBillingDetails();
  const {
    register,
    setError,
    submit,
    formState: { errors },
  } = useContractForm(
    billingDetailsBody,
    Object.fromEntries(FIELDS.map((f) => [f.name, current[f.name] ?? ""])) as Record<keyof BillingDetails, string>,
  );

  const onSubmit = submit(
    FIELDS.map((f) => f.name),
    async (body) => {
      await save.mutateAsync(body);
      toast.success(DETAILS_SAVED);
    },
    (err) => setError("root", { message: errorText(err, "Failed to save the billing details") }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:grid-cols-2">
      {FIELDS.map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          maxLength={f.max}
          hint={f.hint}
          autoComplete={f.autoComplete}
          required={f.name === "name"}
          error={errors[f.name]?.message}
          {...register(f.name)}
        />
      ))}
      {errors.root?.message && (
        <div className="sm:col-span-2">
          <Alert>{errors.root.message}</Alert>
        </div>
      )}
      <FormActions pending={save.isPending} className="sm:col-span-2">
        Save billing details
      </FormActions>
    </form>
  );
}
