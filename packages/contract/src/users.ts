import { z } from "zod";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import "./messages.ts";
import { emailField, messageAnswer, requiredText } from "./auth.ts";
import { PLAN_IDS, ROLES, USER_STATUSES } from "./constants.ts";
import { defineRoute, idParams } from "./routes.ts";

/** The team as the list shows it (docs/product.md, "Records", User list form). */
export const userListItem = z.object({
  id: z.uuid(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  last_login_at: z.string().nullable(),
  avatar_url: z.string().nullable(),
});
export type UserListItem = z.infer<typeof userListItem>;

/** Seats: staff users who are active or invited, against the plan's limit (null: unlimited). */
export const seatUsage = z.object({
  plan: z.enum(PLAN_IDS),
  plan_name: z.string(),
  used: z.number().int().min(0),
  limit: z.number().int().nullable(),
});
export type SeatUsage = z.infer<typeof seatUsage>;

export const userListAnswer = z.object({ users: z.array(userListItem), seats: seatUsage.optional() });
export type UserListAnswer = z.infer<typeof userListAnswer>;

const roleField = z.enum(ROLES, { error: "Role must be agent or admin" });

/** POST /users/invite (email, firstName, lastName, role); role is agent unless admin is chosen. */
export const inviteUserBody = z.object({
  email: emailField,
  firstName: requiredText("First name", 80),
  lastName: requiredText("Last name", 80),
  role: roleField.optional().default("agent"),
});
export type InviteUserBody = z.input<typeof inviteUserBody>;

/** PUT /users/{id} with role, or status active | inactive. */
export const updateUserBody = z
  .object({
    role: roleField.optional(),
    status: z.enum(["active", "inactive"], { error: "Status must be active or inactive" }).optional(),
  })
  .refine((b) => b.role !== undefined || b.status !== undefined, "Send a role or a status to change");
export type UpdateUserBody = z.input<typeof updateUserBody>;

export const userAnswer = z.object({ user: userListItem });
export type UserAnswer = z.infer<typeof userAnswer>;

// Routes -------------------------------------------------------------------------------------------------------------

const tags = ["users"];

/** The team (docs/product.md, "Roles"): every member reads the list; only an admin invites, changes or removes. */
export const usersApi = {
  list: defineRoute({
    method: "GET",
    path: "/api/users",
    summary: "The team, and the seats it uses",
    tags,
    access: "authenticated",
    answers: { 200: userListAnswer },
  }),
  // EMAIL_TAKEN: already in this team or in another; RATE_LIMITED: too many addresses with an account elsewhere.
  invite: defineRoute({
    method: "POST",
    path: "/api/users/invite",
    summary: "Invite someone by email (they hold a seat until they accept or the invitation is revoked)",
    tags,
    access: "admin",
    body: inviteUserBody,
    answers: { 201: userAnswer },
    errors: ["EMAIL_TAKEN", "RATE_LIMITED"],
  }),
  // CONFLICT: the last active admin, or a pending invitation's status.
  update: defineRoute({
    method: "PUT",
    path: "/api/users/:id",
    summary: "Change a member's role, or deactivate or activate them",
    tags,
    access: "admin",
    params: idParams,
    body: updateUserBody,
    answers: { 200: userAnswer },
    errors: ["CONFLICT"],
  }),
  // CONFLICT: the invitation was already accepted.
  resendInvite: defineRoute({
    method: "POST",
    path: "/api/users/:id/resend-invite",
    summary: "Email a pending invitation again with a new link",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: userAnswer },
    errors: ["CONFLICT"],
  }),
  // CONFLICT: a member who joined (they are deactivated instead).
  revokeInvite: defineRoute({
    method: "DELETE",
    path: "/api/users/:id",
    summary: "Revoke a pending invitation (members who joined are deactivated instead)",
    tags,
    access: "admin",
    params: idParams,
    answers: { 200: messageAnswer },
    errors: ["CONFLICT"],
  }),
};
