import {
  type AcceptInviteBody,
  type AuthAnswer,
  authAnswer,
  type ForgotPasswordBody,
  type InvitationAnswer,
  invitationAnswer,
  type LoginBody,
  type MeAnswer,
  type MessageAnswer,
  meAnswer,
  messageAnswer,
  type ProfileBody,
  type RegisterBody,
  type ResetPasswordBody,
} from "@cove/contract/auth.ts";
import { type LoginAnswer, loginAnswer } from "@cove/contract/security.ts";
import { apiRequest } from "../../../lib/api-client.ts";

export function loginRequest(body: LoginBody): Promise<LoginAnswer> {
  return apiRequest("/auth/login", { method: "POST", body, schema: loginAnswer });
}

export function registerRequest(body: RegisterBody): Promise<AuthAnswer> {
  return apiRequest("/auth/register", { method: "POST", body, schema: authAnswer });
}

export function logoutRequest(): Promise<MessageAnswer> {
  return apiRequest("/auth/logout", { method: "POST", schema: messageAnswer });
}

export function meRequest(signal?: AbortSignal): Promise<MeAnswer> {
  return apiRequest("/auth/me", { schema: meAnswer, signal });
}

export function updateProfileRequest(body: ProfileBody): Promise<MeAnswer> {
  return apiRequest("/auth/profile", { method: "PUT", body, schema: meAnswer });
}

export function forgotPasswordRequest(body: ForgotPasswordBody): Promise<MessageAnswer> {
  return apiRequest("/auth/forgot-password", { method: "POST", body, schema: messageAnswer });
}

export function resetPasswordRequest(body: ResetPasswordBody): Promise<MessageAnswer> {
  return apiRequest("/auth/reset-password", { method: "POST", body, schema: messageAnswer });
}

export function resetTokenCheckRequest(token: string, signal?: AbortSignal): Promise<MessageAnswer> {
  return apiRequest("/auth/reset-password/check", { method: "POST", body: { token }, schema: messageAnswer, signal });
}

export function invitationRequest(token: string, signal?: AbortSignal): Promise<InvitationAnswer> {
  return apiRequest("/auth/invite-details", { method: "POST", body: { token }, schema: invitationAnswer, signal });
}

export function acceptInviteRequest(body: AcceptInviteBody): Promise<AuthAnswer> {
  return apiRequest("/auth/accept-invite", { method: "POST", body, schema: authAnswer });
}
