import type { Role, UserStatus } from "@cove/contract/constants.ts";
import type { UserListItem } from "@cove/contract/users.ts";

export const ROLE_LABELS: Record<Role, string> = { agent: "Agent", admin: "Admin" };
export const STATUS_LABELS: Record<UserStatus, string> = { active: "Active", inactive: "Inactive", invited: "Invited" };

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Spec: the Last Login column shows the time, or Never. */
export function lastLogin(iso: string | null): string {
  if (!iso) return "Never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "Never" : dateTime.format(date);
}

export function displayName(user: Pick<UserListItem, "first_name" | "last_name">): string {
  return `${user.first_name} ${user.last_name}`.trim();
}
