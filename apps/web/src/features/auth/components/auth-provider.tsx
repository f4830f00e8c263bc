import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { clearSession, getSession, setSession, subscribeSession } from "../../../lib/session-storage.ts";
import { loginRequest, logoutRequest, meRequest, registerRequest, updateProfileRequest } from "../api/auth.api.ts";
import { type AuthContextValue, AuthContext } from "../hooks/use-auth.ts";

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const session = useSyncExternalStore(subscribeSession, getSession, () => null);
  // A stored token is only trusted after the server confirms it (it may have expired or been revoked).
  const [restoring, setRestoring] = useState(() => getSession() !== null);

  useEffect(() => {
    const token = getSession()?.token;
    if (!token) return;
    const controller = new AbortController();
    meRequest(controller.signal)
      .then(({ user }) => {
        if (getSession()?.token === token) setSession({ token, user });
      })
      .catch(() => {
        // A 401 has already cleared the session in the API client. Any other failure (server down) keeps the stored
        // session: signing people out because of a blip would lose their place; their next call will tell.
      })
      .finally(() => {
        if (!controller.signal.aborted) setRestoring(false);
      });
    return () => controller.abort();
  }, []);

  // Whatever was cached belongs to the previous user: drop it whenever the token changes or goes away.
  const token = session?.token ?? null;
  const previousToken = useRef(token);
  useEffect(() => {
    if (previousToken.current !== token) {
      previousToken.current = token;
      queryClient.clear();
    }
  }, [token, queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status: restoring ? "loading" : session ? "authenticated" : "guest",
      user: session?.user ?? null,
      token: session?.token ?? null,
      async login(body) {
        const answer = await loginRequest(body);
        setSession(answer);
        return answer.user;
      },
      async register(body) {
        const answer = await registerRequest(body);
        setSession(answer);
        return answer.user;
      },
      async logout() {
        try {
          await logoutRequest();
        } catch {
          // Spec: logout clears the session even if the server call fails.
        } finally {
          clearSession();
        }
      },
      async updateProfile(body) {
        const { user } = await updateProfileRequest(body);
        const current = getSession();
        if (current) setSession({ token: current.token, user });
        return user;
      },
    }),
    [restoring, session],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
