import type { TwoFactorPolicy } from "@cove/contract/constants.ts";
import { type SecuritySettings, updateSecurityBody } from "@cove/contract/security.ts";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { FormCard } from "../../../components/ui/form-card.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { useUpdateSecurity } from "../api/security.api.ts";
import { SETTINGS_FAILED, SETTINGS_SAVED } from "./general-form.tsx";

const policyOf = (admins: boolean, everyone: boolean): TwoFactorPolicy =>
  everyone ? "everyone" : admins ? "admins" : "off";

/** The two boxes, read as the contract's policy: everyone includes the admins. */
const securityForm = z
  .object({ admins: z.boolean(), everyone: z.boolean() })
  .transform(({ admins, everyone }) => ({ twoFactorPolicy: policyOf(admins, everyone) }))
  .pipe(updateSecurityBody);
const checkbox = "mt-0.5 size-4 rounded border-slate-300 accent-indigo-600";

/**
 * Settings > Security: who must sign in with a code from an authenticator app. A member it applies to who has not set
 * it up is taken to set it up right after their password, and can do nothing else until then.
 */
export function SecurityForm({ settings }: { settings: SecuritySettings }) {
  const update = useUpdateSecurity();
  const {
    watch,
    setValue,
    setError,
    submit,
    formState: { errors },
  } = useContractForm(securityForm, {
    admins: settings.twoFactorPolicy !== "off",
    everyone: settings.twoFactorPolicy === "everyone",
  });
  const [admins, everyone] = watch(["admins", "everyone"]);
  const error = errors.root?.message;

  const onSubmit = submit(
    [],
    async (body) => {
      await update.mutateAsync(body);
      toast.success(SETTINGS_SAVED);
    },
    (failure) => setError("root", { message: errorText(failure, SETTINGS_FAILED) }),
  );

  return (
    <FormCard onSubmit={onSubmit} aria-label="Security">
      <div>
        <h2 className="text-base font-semibold text-slate-900">Two-factor sign-in</h2>
        <p className="mt-1 text-sm text-slate-600">
          Ask for a code from an authenticator app after the password. Members it applies to who have not set it up are
          asked to do so the next time they use Cove.
        </p>
      </div>
      {error && <Alert>{error}</Alert>}
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          className={checkbox}
          checked={admins || everyone}
          disabled={everyone}
          onChange={(e) => setValue("admins", e.target.checked)}
        />
        <span>Require two-factor sign-in for admins</span>
      </label>
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          className={checkbox}
          checked={everyone}
          onChange={(e) => setValue("everyone", e.target.checked)}
        />
        <span>Require two-factor sign-in for everyone</span>
      </label>
      <FormActions pending={update.isPending} disabled={policyOf(admins, everyone) === settings.twoFactorPolicy}>
        {update.isPending ? "Saving…" : "Save changes"}
      </FormActions>
    </FormCard>
  );
}
