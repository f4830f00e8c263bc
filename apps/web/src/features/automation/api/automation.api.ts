import { automationApi, type CreateRuleBody, type UpdateRuleBody } from "@cove/contract/automation.ts";
import type { CannedReplyBody } from "@cove/contract/canned-replies.ts";
import type { SlaTargetsBody } from "@cove/contract/sla.ts";
import { usersApi } from "@cove/contract/users.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { teamKey, ticketKeys } from "../../../lib/query-keys.ts";

/** Every automation query: the rules, the cards and each rule's run log. */
const automationKey = ["automation"] as const;
const rulesKey = [...automationKey, "rules"] as const;
const statsKey = [...automationKey, "stats"] as const;
const runsKey = (id: string) => [...automationKey, "runs", id] as const;

export function useRules() {
  return useQuery({
    queryKey: rulesKey,
    queryFn: ({ signal }) => callRoute(automationApi.listRules, { signal }),
    // The automation list is not refetched on window focus.
    refetchOnWindowFocus: false,
  });
}

export function useAutomationStats() {
  return useQuery({
    queryKey: statsKey,
    queryFn: ({ signal }) => callRoute(automationApi.stats, { signal }),
  });
}

export function useRuleRuns(id: string) {
  return useQuery({
    queryKey: runsKey(id),
    queryFn: ({ signal }) => callRoute(automationApi.ruleRuns, { params: { id }, signal }),
  });
}

/** The members an assign_ticket action can name (the same cached answer as the team screen's). */
export function useTeamMembers() {
  return useQuery({
    queryKey: teamKey,
    queryFn: ({ signal }) => callRoute(usersApi.list, { signal }),
  });
}

/** Every rule change refreshes the list and the cards. */
function useRuleMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: automationKey }),
  });
}

export function useCreateRule() {
  return useRuleMutation(async (body: CreateRuleBody) => (await callRoute(automationApi.createRule, { body })).rule);
}

/** The edit form sends every field; pause/activate sends only isActive (docs/product.md, "States"). */
export function useUpdateRule() {
  return useRuleMutation(
    async ({ id, body }: { id: string; body: UpdateRuleBody }) =>
      (await callRoute(automationApi.updateRule, { params: { id }, body })).rule,
  );
}

export function useDeleteRule() {
  return useRuleMutation(async (id: string) => (await callRoute(automationApi.deleteRule, { params: { id } })).message);
}

/** SLA targets per priority and business hours (admins change them; agents read them). */
const slaKey = [...automationKey, "sla"] as const;

export function useSlaTargets() {
  return useQuery({
    queryKey: slaKey,
    queryFn: ({ signal }) => callRoute(automationApi.slaTargets, { signal }),
  });
}

export function useSaveSlaTargets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SlaTargetsBody) => (await callRoute(automationApi.putSlaTargets, { body })).targets,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: slaKey });
      // Every open ticket's due times follow the targets: worked out by a background job within moments.
      void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey: ticketKeys.all }), 3000);
    },
  });
}

/** A ticket's due times; under the ticket's key, so whatever refreshes the ticket refreshes them too. */
export function useTicketSla(ticketId: string) {
  return useQuery({
    queryKey: [...ticketKeys.detail(ticketId), "sla"],
    queryFn: ({ signal }) => callRoute(automationApi.ticketSla, { params: { id: ticketId }, signal }),
    retry: false,
  });
}

/** Canned replies: the team reads them from the reply box; admins keep them on the automation screen. */
const cannedKey = ["canned-replies"] as const;

export function useCannedReplies() {
  return useQuery({
    queryKey: cannedKey,
    queryFn: ({ signal }) => callRoute(automationApi.listCannedReplies, { signal }),
  });
}

function useCannedMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: cannedKey }) });
}

export function useSaveCannedReply() {
  return useCannedMutation(async ({ id, body }: { id: string | null; body: CannedReplyBody }) =>
    id
      ? (await callRoute(automationApi.updateCannedReply, { params: { id }, body })).canned_reply
      : (await callRoute(automationApi.createCannedReply, { body })).canned_reply,
  );
}

export function useDeleteCannedReply() {
  return useCannedMutation(
    async (id: string) => (await callRoute(automationApi.deleteCannedReply, { params: { id } })).message,
  );
}
