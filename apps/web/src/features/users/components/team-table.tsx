import type { Role } from "@cove/contract/constants.ts";
import type { UserListItem } from "@cove/contract/users.ts";
import { clsx } from "clsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { TableHead } from "../../../components/ui/table-head.tsx";
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

const labelled =
  "flex min-w-0 flex-col items-start gap-1 before:text-xs before:font-medium before:text-slate-500 before:content-[attr(data-label)] sm:table-cell sm:px-4 sm:py-3 sm:before:content-none";

interface TeamTableProps {
  users: UserListItem[];
  meId: string;
  /** Admins get the role and status controls; agents see the list read-only. */
  canManage: boolean;
}

/** Spec columns: User, Role, Status, Last Login (or Never), Actions. */
export function TeamTable({ users, meId, canManage }: TeamTableProps) {
  return (
    // On a phone each member is a card (cells stack and name themselves), as tickets and articles are.
    <div className="p-3 sm:p-0">
      <table className="block w-full text-sm sm:table sm:min-w-full sm:divide-y sm:divide-slate-200">
        <TableHead
          className="hidden bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase sm:table-header-group"
          cellClassName="px-3 py-3 sm:px-4"
          columns={[
            "User",
            "Role",
            "Status",
            { label: "Last Login", className: "px-3 py-3 sm:px-4 whitespace-nowrap" },
            ...(canManage ? [{ label: "Actions", className: "px-3 py-3 sm:px-4 text-right" }] : []),
          ]}
        />
        <tbody className="block space-y-3 sm:table-row-group sm:space-y-0 sm:divide-y sm:divide-slate-100 sm:bg-white">
          {users.map((u) => (
            <tr
              key={u.id}
              aria-label={displayName(u)}
              className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:table-row sm:rounded-none sm:border-0 sm:p-0 sm:shadow-none"
            >
              <td className="col-span-2 block min-w-0 sm:table-cell sm:px-4 sm:py-3">
                <div className="flex min-w-32 items-center gap-3">
                  <Avatar url={u.avatar_url} size="sm" />
                  <div className="min-w-0 sm:max-w-xs">
                    <p className="truncate font-medium text-slate-900">
                      {displayName(u)}
                      {u.id === meId && <span className="ml-1.5 text-xs font-normal text-slate-500">(you)</span>}
                    </p>
                    <p className="truncate text-slate-500">{u.email}</p>
                  </div>
                </div>
              </td>
              <td data-label="Role" className={labelled}>
                {canManage ? (
                  <RoleSelect user={u} isMe={u.id === meId} />
                ) : (
                  <span className={clsx(badge, roleClasses[u.role])}>{ROLE_LABELS[u.role]}</span>
                )}
              </td>
              <td data-label="Status" className={labelled}>
                <span className={clsx(badge, statusClasses[u.status])}>{STATUS_LABELS[u.status]}</span>
              </td>
              <td data-label="Last Login" className={clsx(labelled, "whitespace-nowrap text-slate-600")}>
                {lastLogin(u.last_login_at)}
              </td>
              {canManage && (
                <td className="col-span-2 block sm:table-cell sm:px-4 sm:py-3">
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
