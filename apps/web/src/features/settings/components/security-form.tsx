import type { TwoFactorPolicy } from "@cove/contract/constants.ts";
import type { SecuritySettings } from "@cove/contract/security.ts";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useUpdateSecurity } from "../api/security.api.ts";
import { SETTINGS_FAILED, SETTINGS_SAVED } from "./general-form.tsx";

const checkbox = "mt-0.5 size-4 rounded border-slate-300 accent-indigo-600";

/**
 * Settings > Security: who must sign in with a code from an authenticator app. A member it applies to who has not set
 * it up is taken to set it up right after their password, and can do nothing else until then.
 */
export function SecurityForm({ settings }: { settings: SecuritySettings }) {
  const update = useUpdateSecurity();
  const [admins, setAdmins] = useState(settings.twoFactorPolicy !== "off");
  const [everyone, setEveryone] = useState(settings.twoFactorPolicy === "everyone");
  const [error, setError] = useState<string | null>(null);
  const policy: TwoFactorPolicy = everyone ? "everyone" : admins ? "admins" : "off";

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      await update.mutateAsync({ twoFactorPolicy: policy });
      toast.success(SETTINGS_SAVED);
    } catch (failure) {
      setError(errorText(failure, SETTINGS_FAILED));
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Security"
      className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
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
          onChange={(e) => setAdmins(e.target.checked)}
        />
        <span>Require two-factor sign-in for admins</span>
      </label>
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          className={checkbox}
          checked={everyone}
          onChange={(e) => setEveryone(e.target.checked)}
        />
        <span>Require two-factor sign-in for everyone</span>
      </label>
      <div className="flex justify-end">
        <Button type="submit" pending={update.isPending} disabled={policy === settings.twoFactorPolicy}>
          {update.isPending ? "Saving…" : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
