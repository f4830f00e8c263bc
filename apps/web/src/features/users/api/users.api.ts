import { securityApi } from "@cove/contract/security.ts";
import { type InviteUserBody, type UpdateUserBody, usersApi } from "@cove/contract/users.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { organizationStatsKey, teamKey } from "../../../lib/query-keys.ts";

export function useTeam() {
  return useQuery({
    queryKey: teamKey,
    queryFn: ({ signal }) => callRoute(usersApi.list, { signal }),
  });
}

/** Every team change refreshes the list, its seat count, and the dashboard's Team Members figure. */
function useTeamMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: teamKey });
      void queryClient.invalidateQueries({ queryKey: organizationStatsKey });
    },
  });
}

export function useInviteUser() {
  return useTeamMutation(async (body: InviteUserBody) => (await callRoute(usersApi.invite, { body })).user);
}

export function useUpdateUser() {
  return useTeamMutation(
    async ({ id, body }: { id: string; body: UpdateUserBody }) =>
      (await callRoute(usersApi.update, { params: { id }, body })).user,
  );
}

export function useResendInvite() {
  return useTeamMutation(async (id: string) => (await callRoute(usersApi.resendInvite, { params: { id } })).user);
}

export function useRevokeInvite() {
  return useTeamMutation(async (id: string) => (await callRoute(usersApi.revokeInvite, { params: { id } })).message);
}

/** An admin's actions on a member's sign-in: reset their two-factor sign-in, or sign them out everywhere. */
export function useMemberSignIn() {
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: "reset-2fa" | "sign-out" }) => {
      const route = action === "reset-2fa" ? securityApi.resetMemberTwoFactor : securityApi.signOutMember;
      return (await callRoute(route, { params: { id } })).message;
    },
  });
}
