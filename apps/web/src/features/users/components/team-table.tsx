import type { Role } from "@cove/contract/constants.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { clsx } from "clsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { MemberActions, RoleSelect } from "./member-actions.tsx";
import { displayName, lastLogin, ROLE_LABELS, STATUS_LABELS } from "./user-format.ts";

const badge =
  "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset";
const statusClasses = {
  active: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  inactive: "bg-slate-100 text-slate-700 ring-slate-500/20",
  invited: "bg-amber-50 text-amber-800 ring-amber-600/30",
};
const roleClasses: Record<Role, string> = {
  admin: "bg-indigo-50 text-indigo-800 ring-indigo-600/20",
  agent: "bg-sky-50 text-sky-800 ring-sky-600/20",
};

interface TeamTableProps {
  users: UserListItem[];
  meId: string;
  /** Admins get the role and status controls; agents see the list read-only. */
  canManage: boolean;
}

/** Spec columns: User, Role, Status, Last Login (or Never), Actions. */
export function TeamTable({ users, meId, canManage }: TeamTableProps) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-3 sm:px-4">
              User
            </th>
            <th scope="col" className="px-3 py-3 sm:px-4">
              Role
            </th>
            <th scope="col" className="hidden px-3 py-3 sm:px-4 sm:table-cell">
              Status
            </th>
            <th scope="col" className="hidden px-3 py-3 sm:px-4 whitespace-nowrap sm:table-cell">
              Last Login
            </th>
            {canManage && (
              <th scope="col" className="px-3 py-3 sm:px-4 text-right">
                Actions
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {users.map((u) => (
            <tr key={u.id} aria-label={displayName(u)}>
              <td className="px-3 py-3 sm:px-4">
                <div className="flex min-w-32 items-center gap-3">
                  <Avatar url={u.avatar_url} size="sm" />
                  <div className="min-w-0 max-w-36 sm:max-w-xs">
                    <p className="truncate font-medium text-slate-900">
                      {displayName(u)}
                      {u.id === meId && <span className="ml-1.5 text-xs font-normal text-slate-500">(you)</span>}
                    </p>
                    <p className="truncate text-slate-500">{u.email}</p>
                    {/* On a phone, status and last login sit under the name instead of in their own columns. */}
                    <p
                      className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500 sm:hidden"
                      aria-hidden="true"
                    >
                      <span className={clsx(badge, statusClasses[u.status])}>{STATUS_LABELS[u.status]}</span>
                      {u.status !== "invited" && <span>Last login: {lastLogin(u.last_login_at)}</span>}
                    </p>
                  </div>
                </div>
              </td>
              <td className="px-3 py-3 sm:px-4">
                {canManage ? (
                  <RoleSelect user={u} isMe={u.id === meId} />
                ) : (
                  <span className={clsx(badge, roleClasses[u.role])}>{ROLE_LABELS[u.role]}</span>
                )}
              </td>
              <td className="hidden px-3 py-3 sm:px-4 sm:table-cell">
                <span className={clsx(badge, statusClasses[u.status])}>{STATUS_LABELS[u.status]}</span>
              </td>
              <td className="hidden px-3 py-3 sm:px-4 whitespace-nowrap text-slate-600 sm:table-cell">
                {lastLogin(u.last_login_at)}
              </td>
              {canManage && (
                <td className="px-3 py-3 sm:px-4">
                  <MemberActions user={u} isMe={u.id === meId} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
