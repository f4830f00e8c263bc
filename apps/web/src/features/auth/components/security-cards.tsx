import type { SessionItem } from "@cove/contract/security.ts";
import { Laptop } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useAuth } from "../../../lib/auth.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import {
  useCodeAction,
  useDisableTwoFactor,
  useSessions,
  useSignOutSessions,
  useTwoFactorStatus,
} from "../api/security.api.ts";
import { codeForm, RecoveryCodes, TwoFactorSetup } from "./two-factor-setup.tsx";

/** A small form asking for a current code before a change (new recovery codes, turning it off). */
function CodeForm({
  label,
  submitLabel,
  pending,
  tone = "primary",
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  pending: boolean;
  tone?: "primary" | "danger";
  onSubmit: (code: string, fail: (message: string) => void) => void;
  onCancel: () => void;
}) {
  const { field, setError, submit: onValid } = useContractForm(codeForm, { code: "" });
  const submit = onValid(
    ["code"],
    async ({ code }) => onSubmit(code, (message) => setError("code", { message })),
    // onSubmit reports its own failures through fail; anything else is said here.
    (error) => setError("code", { message: errorText(error, "Please try again.") }),
  );
  return (
    <form onSubmit={submit} noValidate aria-label={label} className="space-y-3">
      <TextField
        label="Code from your authenticator app"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={20}
        {...field("code")}
      />
      <FormActions onCancel={onCancel} cancelVariant="ghost" variant={tone} pending={pending}>
        {submitLabel}
      </FormActions>
    </form>
  );
}

type Mode = "idle" | "setup" | "regenerate" | "disable";

/** Two-factor sign-in on the profile: turn it on (scan, confirm), new recovery codes, turn it off. */
export function TwoFactorCard() {
  const { refreshUser } = useAuth();
  const status = useTwoFactorStatus();
  const regenerate = useCodeAction("recovery-codes");
  const disable = useDisableTwoFactor();
  const [mode, setMode] = useState<Mode>("idle");
  const [codes, setCodes] = useState<string[] | null>(null);

  if (status.isPending) return <Loading label="Loading two-factor sign-in" />;
  if (status.isError) {
    return (
      <LoadError
        title="Two-factor sign-in could not be loaded"
        error={status.error}
        onRetry={() => void status.refetch()}
      />
    );
  }
  if (codes) return <RecoveryCodes codes={codes} doneLabel="Done" onDone={() => setCodes(null)} />;
  if (mode === "setup") {
    return (
      <TwoFactorSetup
        doneLabel="Done"
        onDone={() => {
          setMode("idle");
          void status.refetch();
          void refreshUser().catch(() => {});
        }}
      />
    );
  }
  const { enabled, required, recoveryCodesLeft } = status.data;
  if (!enabled) {
    return (
      <div className="space-y-3">
        <p className="text-sm text-slate-700">
          <span className="font-medium">Off.</span> Add a code from an authenticator app to your password, so a stolen
          password alone cannot open your account.
        </p>
        <Button type="button" onClick={() => setMode("setup")}>
          Turn on two-factor sign-in
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        <span className="font-medium text-emerald-700">On.</span> You sign in with your password and a code from your
        authenticator app. {recoveryCodesLeft === 1 ? "1 recovery code" : `${recoveryCodesLeft} recovery codes`} left.
        {required && " Your organization requires it."}
      </p>
      {mode === "regenerate" && (
        <CodeForm
          label="New recovery codes"
          submitLabel="Make new recovery codes"
          pending={regenerate.isPending}
          onCancel={() => setMode("idle")}
          onSubmit={(code, fail) =>
            regenerate.mutate(code, {
              onSuccess: ({ recoveryCodes }) => {
                setMode("idle");
                setCodes(recoveryCodes);
              },
              onError: (error) => fail(errorText(error, "New recovery codes could not be made")),
            })
          }
        />
      )}
      {mode === "disable" && (
        <CodeForm
          label="Turn off two-factor sign-in"
          submitLabel="Turn off"
          tone="danger"
          pending={disable.isPending}
          onCancel={() => setMode("idle")}
          onSubmit={(code, fail) =>
            disable.mutate(code, {
              onSuccess: () => {
                setMode("idle");
                toast.success("Two-factor sign-in is off");
                void refreshUser().catch(() => {});
              },
              onError: (error) => fail(errorText(error, "Two-factor sign-in could not be turned off")),
            })
          }
        />
      )}
      {mode === "idle" && (
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="secondary" onClick={() => setMode("regenerate")}>
            New recovery codes
          </Button>
          {!required && (
            <Button type="button" variant="secondary" onClick={() => setMode("disable")}>
              Turn off
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

const when = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)) : "—";

function SessionRow({ session, onSignOut }: { session: SessionItem; onSignOut: (s: SessionItem) => void }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <Laptop className="mt-0.5 size-5 shrink-0 text-slate-400" aria-hidden="true" />
        <div className="min-w-0 text-sm">
          <p className="font-medium break-words text-slate-900">
            {session.device}
            {session.current && (
              <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">
                This device
              </span>
            )}
          </p>
          <p className="break-all text-slate-600">{session.ip ?? "Address unknown"}</p>
          <p className="text-slate-500">
            Signed in {when(session.createdAt)} · Last active {when(session.lastSeenAt)}
          </p>
        </div>
      </div>
      {!session.current && (
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={() => onSignOut(session)}
          aria-label={`Sign out ${session.device}`}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

/** "Where you're signed in": every session of the member, this one marked; sign out one or all the others. */
export function SessionsCard() {
  const sessions = useSessions();
  const signOut = useSignOutSessions();
  const [confirm, setConfirm] = useState<SessionItem | "others" | null>(null);

  if (sessions.isPending) return <Loading label="Loading your sessions" />;
  if (sessions.isError) {
    return (
      <LoadError
        title="Your sessions could not be loaded"
        error={sessions.error}
        onRetry={() => void sessions.refetch()}
      />
    );
  }
  const list = sessions.data.sessions;
  const others = list.filter((s) => !s.current).length;
  const run = () => {
    if (!confirm) return;
    signOut.mutate(confirm === "others" ? null : confirm.id, {
      onSuccess: ({ message }) => {
        toast.success(message);
        setConfirm(null);
      },
      onError: (error) => {
        toastError(error, "Could not sign out");
        setConfirm(null);
      },
    });
  };
  return (
    <div className="space-y-3">
      {list.length === 0 ? (
        <Alert tone="success">You are signed in only here.</Alert>
      ) : (
        <ul className="divide-y divide-slate-100">
          {list.map((s) => (
            <SessionRow key={s.id} session={s} onSignOut={setConfirm} />
          ))}
        </ul>
      )}
      {others > 0 ? (
        <Button type="button" variant="secondary" onClick={() => setConfirm("others")}>
          Sign out everywhere else
        </Button>
      ) : (
        <p className="text-sm text-slate-600">You are not signed in anywhere else.</p>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === "others" ? "Sign out everywhere else?" : "Sign out this session?"}
        description={
          confirm === "others"
            ? "Every other browser and device signed in to your account is signed out at once. You stay signed in here."
            : `${confirm?.device ?? "That device"} is signed out at once.`
        }
        confirmLabel="Sign out"
        tone="danger"
        pending={signOut.isPending}
        onConfirm={run}
      />
    </div>
  );
}
