import { z } from "zod";
// Every message a schema here does not write itself comes from one place: "<Field> must be ...".
import "./messages.ts";
import { emailField, requiredText } from "./auth.ts";
import { PLAN_IDS, ROLES, USER_STATUSES } from "./constants.ts";

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
