import { z } from "zod";
import { ROLES, USER_STATUSES } from "./constants.ts";

/** The team as the list shows it (spec section 3, User list form). */
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
export const userListAnswer = z.object({ users: z.array(userListItem) });
export type UserListAnswer = z.infer<typeof userListAnswer>;
