import type { AcceptInviteBody, LoginBody, ProfileBody, RegisterBody, SessionUser } from "@cove/contract/auth.ts";
import type { LoginTwoFactorBody } from "@cove/contract/security.ts";
import { createContext, useContext } from "react";

export type AuthStatus = "loading" | "authenticated" | "guest";

export interface AuthContextValue {
  status: AuthStatus;
  user: SessionUser | null;
  token: string | null;
  /** Signs in, or answers the challenge of an account with two-factor sign-in (then completeLogin with a code). */
  login: (body: LoginBody) => Promise<SessionUser | { challenge: string }>;
  /** The second step of a sign-in: a code from the authenticator app or a recovery code. */
  completeLogin: (body: LoginTwoFactorBody) => Promise<SessionUser>;
  register: (body: RegisterBody) => Promise<SessionUser>;
  /** Never throws: the local session is cleared even when the server cannot be told. */
  logout: () => Promise<void>;
  updateProfile: (body: ProfileBody) => Promise<SessionUser>;
  /** Accepts an invitation and signs the new member in. */
  acceptInvite: (body: AcceptInviteBody) => Promise<SessionUser>;
  /** Reloads the signed-in user from the server (after a change to one's own role, say). */
  refreshUser: () => Promise<void>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}
