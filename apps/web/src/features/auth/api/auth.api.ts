import {
  type AcceptInviteBody,
  type AuthAnswer,
  authApi,
  type ForgotPasswordBody,
  type InvitationAnswer,
  type LoginAnswer,
  type LoginBody,
  type MeAnswer,
  type MessageAnswer,
  type ProfileBody,
  type RegisterBody,
  type ResetPasswordBody,
} from "@cove/contract/auth.ts";
import { callRoute } from "../../../lib/api-client.ts";

export function loginRequest(body: LoginBody): Promise<LoginAnswer> {
  return callRoute(authApi.login, { body });
}

export function registerRequest(body: RegisterBody): Promise<AuthAnswer> {
  return callRoute(authApi.register, { body });
}

export function logoutRequest(): Promise<MessageAnswer> {
  return callRoute(authApi.logout, {});
}

export function meRequest(signal?: AbortSignal): Promise<MeAnswer> {
  return callRoute(authApi.me, { signal });
}

export function updateProfileRequest(body: ProfileBody): Promise<MeAnswer> {
  return callRoute(authApi.updateProfile, { body });
}

export function forgotPasswordRequest(body: ForgotPasswordBody): Promise<MessageAnswer> {
  return callRoute(authApi.forgotPassword, { body });
}

export function resetPasswordRequest(body: ResetPasswordBody): Promise<MessageAnswer> {
  return callRoute(authApi.resetPassword, { body });
}

export function resetTokenCheckRequest(token: string, signal?: AbortSignal): Promise<MessageAnswer> {
  return callRoute(authApi.checkResetToken, { body: { token }, signal });
}

export function invitationRequest(token: string, signal?: AbortSignal): Promise<InvitationAnswer> {
  return callRoute(authApi.invitation, { body: { token }, signal });
}

export function acceptInviteRequest(body: AcceptInviteBody): Promise<AuthAnswer> {
  return callRoute(authApi.acceptInvite, { body });
}
