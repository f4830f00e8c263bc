import { type PortalCustomer, updatePortalMeBody } from "@cove/contract/portal.ts";
import { toast } from "sonner";
import { FormDialog } from "../../../components/ui/dialog-shell.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { applyFieldErrors } from "../../../lib/form-errors.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useUpdateMe } from "../api/portal.queries.ts";
import { usePortal } from "../api/portal-context.ts";
import { brandStyle } from "./portal-brand.ts";

/** The customer's name and company (their email is how they sign in, so it stays). */
export function DetailsDialog({
  customer,
  open,
  onOpenChange,
}: {
  customer: PortalCustomer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const portal = usePortal();
  const update = useUpdateMe();
  const saved = { name: customer.name, company: customer.company ?? "" };
  const {
    field,
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = useContractForm(updatePortalMeBody, saved, { values: saved });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast.success("Your details were saved.");
      onOpenChange(false);
    } catch (error) {
      applyFieldErrors(error, setError, ["name", "company"]);
      toastError(error, "Your details could not be saved.");
    }
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      pending={isSubmitting}
      title="Your details"
      description={`Signed in as ${customer.email ?? "a customer"}.`}
      width="max-w-md"
      style={brandStyle(portal.organization.branding)}
    >
      <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
        <TextField label="Name" maxLength={120} {...field("name")} />
        <TextField label="Company" maxLength={120} {...field("company")} />
        <FormActions onCancel="close" variant="accent" pending={isSubmitting}>
          Save
        </FormActions>
      </form>
    </FormDialog>
  );
}
