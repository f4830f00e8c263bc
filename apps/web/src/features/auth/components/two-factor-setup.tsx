import { CODE_MESSAGE, type TwoFactorSetupAnswer, totpCodeField } from "@cove/contract/security.ts";
import { Copy, Download } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { useCodeAction, useStartTwoFactor } from "../api/security.api.ts";

/**
 * A code field checked with the contract's rule (6 digits once spaces and dashes are dropped) and sent as typed: the
 * server drops them itself.
 */
export const codeForm = z.object({
  code: z.string().refine((value) => totpCodeField.safeParse(value).success, CODE_MESSAGE),
});

/** The recovery codes, shown once: to copy or download, with a word on keeping them. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel: string;
}) {
  const text = `Cove recovery codes\nEach code works once.\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Recovery codes copied");
    } catch {
      toastError(null, "Could not copy: select the codes and copy them yourself.");
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "cove-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section aria-label="Recovery codes" className="space-y-4">
      <p className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only
        now.
      </p>
      <ul className="grid grid-cols-2 gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm text-slate-800">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" onClick={copy}>
          <Copy className="size-4" aria-hidden="true" /> Copy
        </Button>
        <Button type="button" variant="secondary" onClick={download}>
          <Download className="size-4" aria-hidden="true" /> Download
        </Button>
        <Button type="button" onClick={onDone} className="sm:ml-auto">
          {doneLabel}
        </Button>
      </div>
    </section>
  );
}

function ConfirmCode({ setup, onEnabled }: { setup: TwoFactorSetupAnswer; onEnabled: (codes: string[]) => void }) {
  const enable = useCodeAction("enable");
  const { field, setError, submit } = useContractForm(codeForm, { code: "" });
  const onSubmit = submit(
    ["code"],
    async ({ code }) => onEnabled((await enable.mutateAsync(code)).recoveryCodes),
    (error) => setError("code", { message: errorText(error, "Two-factor sign-in could not be turned on") }),
  );
  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
        <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password...).</li>
        <li>Scan this QR code, or enter the key below by hand.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        <img
          src={setup.qrCode}
          alt="QR code to scan with your authenticator app"
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-md border border-slate-200 bg-white"
        />
        <div className="min-w-0 space-y-1 text-sm">
          <p className="font-medium text-slate-900">Can't scan it? Enter this key:</p>
          <code className="block rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all text-slate-800">
            {setup.secret.replace(/(.{4})/g, "$1 ").trim()}
          </code>
          <p className="text-xs text-slate-500">Time-based, 6 digits, every 30 seconds.</p>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate aria-label="Confirm two-factor sign-in" className="space-y-4">
        <TextField
          label="Code from your app"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={20}
          {...field("code")}
        />
        <Button type="submit" pending={enable.isPending}>
          {enable.isPending ? "Checking…" : "Turn on two-factor sign-in"}
        </Button>
      </form>
    </div>
  );
}

/**
 * Setting up two-factor sign-in: a new secret as a QR code and as text, a first code to confirm it, then the recovery
 * codes, shown once. onDone runs when the member has seen the codes.
 */
export function TwoFactorSetup({ onDone, doneLabel }: { onDone: () => void; doneLabel: string }) {
  const start = useStartTwoFactor();
  const [codes, setCodes] = useState<string[] | null>(null);
  // Once per screen: a second set-up would replace the secret the QR code shows.
  const started = useRef(false);
  const { mutate } = start;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate();
  }, [mutate]);

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} doneLabel={doneLabel} />;
  if (start.isError) {
    return (
      <div className="space-y-3">
        <Alert>{errorText(start.error, "Two-factor sign-in could not be set up")}</Alert>
        <Button type="button" variant="secondary" onClick={() => mutate()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!start.data) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
        <Spinner /> Preparing your QR code...
      </p>
    );
  }
  return <ConfirmCode setup={start.data} onEnabled={setCodes} />;
}
