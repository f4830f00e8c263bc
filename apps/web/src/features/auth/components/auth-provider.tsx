import { type ReactNode, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { AuthContext, type AuthContextValue } from "../../../lib/auth.ts";
import { markNewcomer } from "../../../lib/first-visit.ts";
import { clearSession, getSession, setSession, subscribeSession } from "../../../lib/session-storage.ts";

// The API client and the contract's zod schemas load on first use, keeping them out of the landing page's bundle.
const authApi = () => import("../api/auth.api.ts");

export function AuthProvider({ children }: { children: ReactNode }) {
  const session = useSyncExternalStore(subscribeSession, getSession, () => null);
  // A stored token is only trusted after the server confirms it (it may have expired or been revoked).
  const [restoring, setRestoring] = useState(() => getSession() !== null);

  useEffect(() => {
    const token = getSession()?.token;
    if (!token) return;
    const controller = new AbortController();
    authApi()
      .then(({ meRequest }) => meRequest(controller.signal))
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

  const value = useMemo<AuthContextValue>(
    () => ({
      status: restoring ? "loading" : session ? "authenticated" : "guest",
      user: session?.user ?? null,
      token: session?.token ?? null,
      async login(body) {
        const { loginRequest } = await authApi();
        const answer = await loginRequest(body);
        if ("challenge" in answer) return { challenge: answer.challenge };
        setSession(answer);
        return answer.user;
      },
      async completeLogin(body) {
        const { loginTwoFactorRequest } = await import("../api/security.api.ts");
        const answer = await loginTwoFactorRequest(body);
        setSession(answer);
        return answer.user;
      },
      async register(body) {
        const { registerRequest } = await authApi();
        const answer = await registerRequest(body);
        markNewcomer(answer.user.id);
        setSession(answer);
        return answer.user;
      },
      async logout() {
        try {
          const { logoutRequest } = await authApi();
          await logoutRequest();
        } catch {
          // Spec: logout clears the session even if the server call fails.
        } finally {
          clearSession();
        }
      },
      async updateProfile(body) {
        const { updateProfileRequest } = await authApi();
        const { user } = await updateProfileRequest(body);
        const current = getSession();
        if (current) setSession({ token: current.token, user });
        return user;
      },
      async acceptInvite(body) {
        const { acceptInviteRequest } = await authApi();
        const answer = await acceptInviteRequest(body);
        markNewcomer(answer.user.id);
        setSession(answer);
        return answer.user;
      },
      async refreshUser() {
        const token = getSession()?.token;
        if (!token) return;
        const { meRequest } = await authApi();
        const { user } = await meRequest();
        if (getSession()?.token === token) setSession({ token, user });
      },
    }),
    [restoring, session],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
