import { type AuthAnswer, authAnswer, messageAnswer } from "@cove/contract/auth.ts";
import {
  type LoginTwoFactorBody,
  recoveryCodesAnswer,
  sessionsAnswer,
  twoFactorSetupAnswer,
  twoFactorStatus,
} from "@cove/contract/security.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";

/** Two-factor sign-in and sessions of the signed-in member (docs/decisions/2026-11-29-two-factor-and-sessions.md). */
export const twoFactorKey = ["auth", "two-factor"] as const;
export const sessionsKey = ["auth", "sessions"] as const;

export function loginTwoFactorRequest(body: LoginTwoFactorBody): Promise<AuthAnswer> {
  return apiRequest("/auth/login/2fa", { method: "POST", body, schema: authAnswer, anonymous: true });
}

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: twoFactorKey,
    queryFn: ({ signal }) => apiRequest("/auth/2fa", { schema: twoFactorStatus, signal }),
  });
}

export function useStartTwoFactor() {
  return useMutation({
    mutationFn: () => apiRequest("/auth/2fa/setup", { method: "POST", schema: twoFactorSetupAnswer }),
  });
}

/** enable (confirm set-up) and recovery-codes (new ones) both answer the codes, shown once. */
export function useCodeAction(action: "enable" | "recovery-codes") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest(`/auth/2fa/${action}`, { method: "POST", body: { code }, schema: recoveryCodesAnswer }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest("/auth/2fa/disable", { method: "POST", body: { code }, schema: messageAnswer }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: twoFactorKey }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: ({ signal }) => apiRequest("/auth/sessions", { schema: sessionsAnswer, signal }),
  });
}

/** Signs out one session (an id) or every other one (null). */
export function useSignOutSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) =>
      apiRequest(id ? `/auth/sessions/${encodeURIComponent(id)}` : "/auth/sessions", {
        method: "DELETE",
        schema: messageAnswer,
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
