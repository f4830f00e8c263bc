import { ROLES, type Role } from "@cove/contract/constants.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { ChevronDown } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { toastError, toastErrorWithReason } from "../../../lib/toast-error.ts";
import { useMemberSignIn, useResendInvite, useRevokeInvite, useUpdateUser } from "../api/users.api.ts";
import { displayName, ROLE_LABELS } from "./user-format.ts";

const NO_ANSWER = "the server did not answer";

type Pending = { kind: "deactivate" } | { kind: "revoke" } | null;

/** The spec's fixed headline, with the server's reason underneath so the admin knows what to do. */
function toastFailure(title: string, error: unknown) {
  toastError(error, title);
}

/** The Role column for an admin: a change takes effect after a confirmation (spec). */
export function RoleSelect({ user, isMe }: { user: UserListItem; isMe: boolean }) {
  const { refreshUser } = useAuth();
  const update = useUpdateUser();
  const [next, setNext] = useState<Role | null>(null);
  const name = displayName(user);

  async function changeRole(role: Role) {
    try {
      await update.mutateAsync({ id: user.id, body: { role } });
      toast.success("User updated successfully!");
      // Stepping down as admin changes what this very screen may show.
      if (isMe) await refreshUser().catch(() => {});
    } catch (error) {
      toastFailure("Failed to update user", error);
    } finally {
      setNext(null);
    }
  }

  return (
    <>
      <label className="sr-only" htmlFor={`role-${user.id}`}>
        Role of {name}
      </label>
      <span className="relative inline-block">
        <select
          id={`role-${user.id}`}
          value={user.role}
          disabled={update.isPending}
          onChange={(e) => {
            const role = ROLES.find((r) => r === e.target.value);
            if (role && role !== user.role) setNext(role);
          }}
          // The same look as every other select (SelectField), at the table's height.
          className="h-8 appearance-none rounded-md border border-slate-300 bg-white pr-8 pl-2.5 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500/40 disabled:opacity-60"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
        <ChevronDown
          className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-slate-500"
          aria-hidden="true"
        />
      </span>
      <ConfirmDialog
        open={next !== null}
        onOpenChange={(open) => !open && setNext(null)}
        title={`Are you sure you want to change this user's role to ${next ? ROLE_LABELS[next] : ""}?`}
        description={
          next === "admin"
            ? `${name} will be able to invite, change and deactivate team members, and manage billing and settings.`
            : `${name} will keep working on tickets, chats and articles, without team, billing or settings access.`
        }
        confirmLabel="Change role"
        pending={update.isPending}
        onConfirm={() => next && void changeRole(next)}
      />
    </>
  );
}

/**
 * An admin's actions on an active member's sign-in, each confirmed: reset their two-factor sign-in (they lost their
 * phone; they are told by email), or sign them out everywhere.
 */
function SignInActions({ user }: { user: UserListItem }) {
  const signIn = useMemberSignIn();
  const [action, setAction] = useState<"reset-2fa" | "sign-out" | null>(null);
  const name = displayName(user);
  const run = () => {
    if (!action) return;
    signIn.mutate(
      { id: user.id, action },
      {
        onSuccess: (message) => toast.success(message),
        onError: (error) =>
          toastError(error, action === "reset-2fa" ? "Failed to reset two-factor sign-in" : "Failed to sign out"),
        onSettled: () => setAction(null),
      },
    );
  };
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => setAction("sign-out")}
        // The visible words first: a voice user says what they see (WCAG 2.5.3, label in name).
        aria-label={`Sign out everywhere: ${name}`}
      >
        Sign out everywhere
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setAction("reset-2fa")} aria-label={`Reset 2FA: ${name}`}>
        Reset 2FA
      </Button>
      <ConfirmDialog
        open={action !== null}
        onOpenChange={(open) => !open && setAction(null)}
        title={action === "reset-2fa" ? "Reset two-factor sign-in?" : "Sign this member out everywhere?"}
        description={
          action === "reset-2fa"
            ? `${name} will sign in with their password alone (or set it up again if your organization requires it). We will email them to let them know.`
            : `${name} is signed out on every browser and device at once, and can sign in again.`
        }
        confirmLabel={action === "reset-2fa" ? "Reset" : "Sign out"}
        tone="danger"
        pending={signIn.isPending}
        onConfirm={run}
      />
    </>
  );
}

/** Deactivation asks first (spec); activation does not; an invitation can be resent or revoked (this product's choice). */
export function MemberActions({ user, isMe }: { user: UserListItem; isMe: boolean }) {
  const update = useUpdateUser();
  const resend = useResendInvite();
  const revoke = useRevokeInvite();
  const [pending, setPending] = useState<Pending>(null);
  const name = displayName(user);
  const close = () => setPending(null);

  async function deactivate() {
    try {
      await update.mutateAsync({ id: user.id, body: { status: "inactive" } });
      toast.success("User deactivated successfully!");
    } catch (error) {
      toastFailure("Failed to deactivate user", error);
    } finally {
      close();
    }
  }

  async function activate() {
    try {
      await update.mutateAsync({ id: user.id, body: { status: "active" } });
      toast.success("User updated successfully!");
    } catch (error) {
      toastFailure("Failed to update user", error);
    }
  }

  async function resendInvitation() {
    try {
      await resend.mutateAsync(user.id);
      toast.success(`Invitation sent again to ${user.email}`);
    } catch (error) {
      toastErrorWithReason(error, (reason) => `Failed to resend invitation: ${reason}`, NO_ANSWER);
    }
  }

  async function revokeInvitation() {
    try {
      await revoke.mutateAsync(user.id);
      toast.success("Invitation revoked");
    } catch (error) {
      toastErrorWithReason(error, (reason) => `Failed to revoke invitation: ${reason}`, NO_ANSWER);
    } finally {
      close();
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2 sm:justify-end">
      {user.status === "active" && !isMe && <SignInActions user={user} />}
      {user.status === "active" && !isMe && (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setPending({ kind: "deactivate" })}
          aria-label={`Deactivate ${name}`}
        >
          Deactivate
        </Button>
      )}
      {user.status === "inactive" && (
        <Button
          size="sm"
          variant="secondary"
          pending={update.isPending}
          onClick={activate}
          aria-label={`Activate ${name}`}
        >
          Activate
        </Button>
      )}
      {user.status === "invited" && (
        <>
          <Button
            size="sm"
            variant="secondary"
            pending={resend.isPending}
            onClick={resendInvitation}
            aria-label={`Resend invitation to ${name}`}
          >
            Resend
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setPending({ kind: "revoke" })}
            aria-label={`Revoke invitation of ${name}`}
          >
            Revoke
          </Button>
        </>
      )}

      <ConfirmDialog
        open={pending?.kind === "deactivate"}
        onOpenChange={(open) => !open && close()}
        title="Are you sure you want to deactivate this user?"
        description={`${name} will be signed out at once and cannot sign in until activated again.`}
        confirmLabel="Deactivate"
        tone="danger"
        pending={update.isPending}
        onConfirm={() => void deactivate()}
      />
      <ConfirmDialog
        open={pending?.kind === "revoke"}
        onOpenChange={(open) => !open && close()}
        title="Are you sure you want to revoke this invitation?"
        description={`The link sent to ${user.email} will stop working, and the seat is freed.`}
        confirmLabel="Revoke invitation"
        tone="danger"
        pending={revoke.isPending}
        onConfirm={() => void revokeInvitation()}
      />
    </div>
  );
}
