import { PLANS } from "@cove/contract/constants.ts";
import { type SQL, sql } from "drizzle-orm";
import { now } from "../../platform/clock.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import { accessAt, readBillingState, readOnlyError } from "./access.ts";

const count = new Intl.NumberFormat("en-US");

/**
 * Whether the organization may take one more ticket, whatever it comes from (staff, email, chat, portal): not while it
 * is read-only, and not past its plan's tickets this calendar month (in its time zone). Call it inside the creating
 * transaction after taking the organization's row lock (ticket numbering takes it), so two creations cannot both take
 * the last ticket of the month. The tickets module owns the tickets table, so it says how they are counted:
 * `createdSince(since, cap)` is a scalar subquery of how many tickets were created since a time, counted up to cap.
 */
export async function assertTicketAllowed(
  ctx: { orgId: string; db: Queryable },
  createdSince: (since: SQL, cap: number) => SQL,
): Promise<void> {
  const state = await readBillingState(ctx.db, ctx.orgId);
  if (!state) throw notFound("Organization");
  const at = now();
  const access = accessAt(state, at);
  if (access.read_only) throw readOnlyError(access);
  const plan = PLANS[state.plan];
  const limit = plan.ticketsPerMonth;
  if (limit === null) return;
  // Counting stops at the limit: a month's count never reads more than that many index entries.
  const monthStart = sql`(date_trunc('month', ${at.toISOString()}::timestamptz at time zone ${state.timezone})
                          at time zone ${state.timezone})`;
  const [row] = await queryRows<{ used: number; resets: string }>(
    ctx.db,
    sql`select ${createdSince(monthStart, limit)} as used,
               to_char(date_trunc('month', ${at.toISOString()}::timestamptz at time zone ${state.timezone})
                       + interval '1 month', 'FMMonth FMDD') as resets`,
  );
  if (!row || row.used < limit) return;
  const allowance =
    state.status === "trialing"
      ? `Your trial has the ${plan.name} plan's limit of ${count.format(limit)} tickets per month`
      : `The ${plan.name} plan allows ${count.format(limit)} tickets per month`;
  throw new AppError(
    "TICKET_LIMIT",
    `${allowance}, and this month's are used. New tickets can be created again on ${row.resets}, or an admin can upgrade the plan on the Billing page.`,
  );
}
