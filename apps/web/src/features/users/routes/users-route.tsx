import type { UserListAnswer } from "@cove/contract/users.ts";
import { UserPlus, Users } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { FigureCards } from "../../../components/ui/figure-cards.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useTeam } from "../api/users.api.ts";
import { InviteForm } from "../components/invite-form.tsx";
import { TeamTable } from "../components/team-table.tsx";

function SummaryCards({ answer }: { answer: UserListAnswer }) {
  const { users, seats } = answer;
  const cards = [
    { label: "Total", value: users.length },
    { label: "Active", value: users.filter((u) => u.status === "active").length },
    // Invited admins have not joined yet: they are counted once they accept.
    { label: "Admins", value: users.filter((u) => u.role === "admin" && u.status !== "invited").length },
  ];
  return (
    <div className="space-y-2">
      <FigureCards className="grid grid-cols-3 gap-3 sm:gap-4" cards={cards} />
      {seats && (
        <p className="text-sm text-slate-600">
          {seats.limit === null
            ? `${seats.plan_name} plan: unlimited seats (${seats.used} in use, counting invitations).`
            : `${seats.used} of ${seats.limit} seats in use on the ${seats.plan_name} plan, counting invitations.`}
        </p>
      )}
    </div>
  );
}

/** Spec: Team members. Admins invite and manage; agents see the same list read-only (docs/product.md, "Roles"). */
export function UsersRoute() {
  const { user } = useAuth();
  const team = useTeam();
  const isAdmin = user?.role === "admin";
  const [inviting, setInviting] = useState(false);
  const onlyMe = team.data !== undefined && team.data.users.length <= 1;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Users"
        lead={
          isAdmin
            ? "Your team members: invite people, choose who is an admin, and deactivate those who have left."
            : "Your team members. Only an admin can invite or change members."
        }
        actions={
          isAdmin &&
          !inviting && (
            <Button onClick={() => setInviting(true)}>
              <UserPlus className="size-4" aria-hidden="true" />
              Invite User
            </Button>
          )
        }
      />

      {isAdmin && inviting && <InviteForm onClose={() => setInviting(false)} />}

      {team.isPending ? (
        <Loading label="Loading team members" />
      ) : team.isError ? (
        <LoadError title="Error loading users" error={team.error} onRetry={() => void team.refetch()} />
      ) : (
        <>
          <SummaryCards answer={team.data} />
          <section
            aria-label="Team members"
            className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
          >
            <TeamTable users={team.data.users} meId={user?.id ?? ""} canManage={isAdmin} />
            {onlyMe && (
              <div className="flex flex-col items-center gap-3 border-t border-dashed border-slate-300 px-6 py-12 text-center">
                <Users className="size-8 text-slate-400" aria-hidden="true" />
                <h2 className="text-base font-semibold text-slate-900">No teammates yet</h2>
                <p className="max-w-sm text-sm text-slate-600">
                  Invite the people who answer your customers. Each gets an email with a link to join.
                </p>
                {isAdmin && !inviting && (
                  <Button variant="secondary" onClick={() => setInviting(true)}>
                    <UserPlus className="size-4" aria-hidden="true" />
                    Invite your first teammate
                  </Button>
                )}
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}
