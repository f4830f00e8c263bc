import { type UserListAnswer, type UserListItem, usersApi } from "@cove/contract/users.ts";
import { useQuery } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { teamKey } from "../../../lib/query-keys.ts";

/** The team members a ticket can be assigned to: the active ones, by name. */
export function useActiveAgents() {
  return useQuery({
    queryKey: teamKey,
    queryFn: ({ signal }) => callRoute(usersApi.list, { signal }),
    select: activeByName,
  });
}

function activeByName(answer: UserListAnswer): UserListItem[] {
  return answer.users.filter((u) => u.status === "active").sort((a, b) => fullName(a).localeCompare(fullName(b)));
}

export function fullName(user: Pick<UserListItem, "first_name" | "last_name">): string {
  return `${user.first_name} ${user.last_name}`.trim();
}
