import type { AuthAnswer } from "@cove/contract/auth.ts";
import { type LoginTwoFactorBody, securityApi } from "@cove/contract/security.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";

/** Two-factor sign-in and sessions of the signed-in member (docs/decisions/2026-11-29-two-factor-and-sessions.md). */
export const twoFactorKey = ["auth", "two-factor"] as const;
export const sessionsKey = ["auth", "sessions"] as const;

export function loginTwoFactorRequest(body: LoginTwoFactorBody): Promise<AuthAnswer> {
  return callRoute(securityApi.loginSecondFactor, { body, anonymous: true });
}

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKey,
    queryFn: ({ signal }) => callRoute(securityApi.twoFactor, { signal }),
  });
}

export function useStartTwoFactor() {
  return useMutation({
    mutationFn: () => callRoute(securityApi.startTwoFactor, {}),
  });
}

/** enable (confirm set-up) and recovery-codes (new ones) both answer the codes, shown once. */
export function useCodeAction(action: "enable" | "recovery-codes") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      action === "enable"
        ? callRoute(securityApi.enableTwoFactor, { body: { code } })
        : callRoute(securityApi.newRecoveryCodes, { body: { code } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => callRoute(securityApi.disableTwoFactor, { body: { code } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => callRoute(securityApi.sessions, { signal }),
  });
}

/** Signs out one session (an id) or every other one (null). */
export function useSignOutSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) =>
      id ? callRoute(securityApi.signOutSession, { params: { id } }) : callRoute(securityApi.signOutOtherSessions, {}),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
