import type { LoginBody, ProfileBody, RegisterBody, SessionUser } from "@cove/contract/auth.ts";
import { createContext, useContext } from "react";

export type AuthStatus = "loading" | "authenticated" | "guest";

export interface AuthContextValue {
  status: AuthStatus;
  user: SessionUser | null;
  token: string | null;
  login: (body: LoginBody) => Promise<SessionUser>;
  register: (body: RegisterBody) => Promise<SessionUser>;
  /** Never throws: the local session is cleared even when the server cannot be told. */
  logout: () => Promise<void>;
  updateProfile: (body: ProfileBody) => Promise<SessionUser>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used inside <AuthProvider>");
  return value;
}
