import {
  type AccountAccess,
  CANCELED_DELETE_DAYS,
  CANCELED_FULL_ACCESS_DAYS,
  PAYMENT_GRACE_DAYS,
  type SubscriptionStatus,
} from "@cove/contract/billing.ts";
import type { PlanId } from "@cove/contract/constants.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { now } from "../../platform/clock.ts";
import { type Queryable, queryRows } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A signed-in write route that still works while the organization is read-only: signing out, one's own password,
     * paying (subscribe, convert, card), cancelling, exporting and deleting the organization. Every other write is
     * refused with READ_ONLY, so a route added later is covered without anyone remembering to.
     */
    allowedWhenReadOnly?: true;
    /**
     * A public write route (a visitor, a customer by link, the assistant's console): the organization it writes to,
     * found from its valid input, or null when it writes nothing (what it names does not exist: the handler answers
     * that). A read-only organization's is refused with READ_ONLY like a member's write. Every public write route
     * declares it or is listed as exempt in test/billing/read-only.test.ts.
     */
    writesTo?: (req: FastifyRequest) => Promise<string | null>;
  }
}

const DAY = 86_400_000;

/** What decides whether an organization may change anything. */
export interface BillingState {
  plan: PlanId;
  status: SubscriptionStatus;
  trialEndsAt: Date | null;
  pastDueSince: Date | null;
  endedAt: Date | null;
  timezone: string;
}

const day = (date: Date) => new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(date);
const iso = (date: Date | null) => (date ? date.toISOString() : null);
const STILL_READ = "you can still sign in, read and export your data";

/** Full access or read-only, and why, at a given time (docs/product.md, "Plans and the trial"). */
export function accessAt(state: Omit<BillingState, "plan" | "timezone">, at: Date): AccountAccess {
  const access: AccountAccess = {
    read_only: false,
    reason: null,
    message: null,
    grace_ends_at: null,
    read_only_from: null,
    deletes_at: null,
  };
  if (state.status === "trialing" && state.trialEndsAt && at >= state.trialEndsAt) {
    return {
      ...access,
      read_only: true,
      reason: "trial_expired",
      message: `Your free trial has ended, so your organization is read-only: ${STILL_READ}. An admin can subscribe on the Billing page to make changes again.`,
    };
  }
  if (state.status === "past_due") {
    const since = state.pastDueSince ?? at;
    const graceEnds = new Date(since.getTime() + PAYMENT_GRACE_DAYS * DAY);
    if (at >= graceEnds) {
      return {
        ...access,
        read_only: true,
        reason: "payment_overdue",
        grace_ends_at: iso(graceEnds),
        message: `Your last payment failed and the ${PAYMENT_GRACE_DAYS}-day grace period ended on ${day(graceEnds)}, so your organization is read-only: ${STILL_READ}. An admin can update the card on the Billing page to make changes again.`,
      };
    }
    return {
      ...access,
      grace_ends_at: iso(graceEnds),
      message: `Your last payment failed. Update the card on the Billing page by ${day(graceEnds)} to keep full access; after that your organization becomes read-only.`,
    };
  }
  if (state.status === "canceled") {
    const ended = state.endedAt ?? at;
    const readOnlyFrom = new Date(ended.getTime() + CANCELED_FULL_ACCESS_DAYS * DAY);
    const deletesAt = new Date(ended.getTime() + CANCELED_DELETE_DAYS * DAY);
    const dates = { read_only_from: iso(readOnlyFrom), deletes_at: iso(deletesAt) };
    if (at >= readOnlyFrom) {
      return {
        ...access,
        ...dates,
        read_only: true,
        reason: "canceled",
        message: `Your subscription ended on ${day(ended)}, so your organization is read-only until its data is deleted on ${day(deletesAt)}: ${STILL_READ}. An admin can subscribe again on the Billing page.`,
      };
    }
    return {
      ...access,
      ...dates,
      message: `Your subscription ended on ${day(ended)}. You keep full access until ${day(readOnlyFrom)} to export your data; then it is read-only until it is deleted on ${day(deletesAt)}. An admin can subscribe again on the Billing page.`,
    };
  }
  return access;
}

interface StateRow {
  plan: PlanId;
  status: SubscriptionStatus;
  trialEndsAt: Date | string | null;
  pastDueSince: Date | string | null;
  endedAt: Date | string | null;
  timezone: string;
}

const toDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/** The organization's billing state; through a tenant transaction, or as the owner before one exists. */
export async function readBillingState(db: Queryable, orgId: string): Promise<BillingState | null> {
  const [row] = await queryRows<StateRow>(
    db,
    // A function of its own (migration 0021), so a customer's transaction can check it without reading billing rows.
    sql`select * from organization_billing_state(${orgId}::uuid)`,
  );
  if (!row) return null;
  return {
    ...row,
    trialEndsAt: toDate(row.trialEndsAt),
    pastDueSince: toDate(row.pastDueSince),
    endedAt: toDate(row.endedAt),
  };
}

export const readOnlyError = (access: AccountAccess) =>
  new AppError("READ_ONLY", access.message ?? "Your organization is read-only.");

/** What a visitor or a customer is told: the organization's billing is none of their business. */
export const PUBLIC_READ_ONLY =
  "This organization's help desk is read-only for now, so it cannot take this. Please try again later.";

/** Refuses a change while the organization is read-only; for writes that do not come through a staff route. */
export async function assertWritable(db: Queryable, orgId: string): Promise<BillingState | null> {
  const state = await readBillingState(db, orgId);
  if (!state) return null;
  const access = accessAt(state, now());
  if (access.read_only) throw readOnlyError(access);
  return state;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Read-only mode on every signed-in write route: after access control has found the caller (and before the body is
 * validated, so the answer does not depend on it), a write by a member of a read-only organization is refused with
 * the reason and what to do. Reads and export keep working. A public write (writesTo) is refused the same way, with
 * a text for visitors and customers.
 */
export function registerReadOnlyGuard(app: FastifyInstance): void {
  // A public write's organization comes from its input, so it is checked once the input is valid.
  app.addHook("preHandler", async (req) => {
    const writesTo = req.routeOptions.config.writesTo;
    if (!writesTo || READS.has(req.method)) return;
    const orgId = await writesTo(req);
    if (!orgId) return;
    const state = await readBillingState(app.db, orgId);
    if (state && accessAt(state, now()).read_only) throw new AppError("READ_ONLY", PUBLIC_READ_ONLY);
  });
  app.addHook("preValidation", async (req) => {
    if (READS.has(req.method)) return;
    const config = req.routeOptions.config;
    if (config.access !== "authenticated" && config.access !== "admin") return;
    if (config.allowedWhenReadOnly || !req.principal) return;
    await assertWritable(app.db, req.principal.orgId);
  });
}
