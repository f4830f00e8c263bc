import { SLA_WARNING_SHARE } from "@cove/contract/sla.ts";
import type { SlaKind } from "@cove/contract/tickets.ts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { now } from "../../platform/clock.ts";
import { type Db, queryRows } from "../../platform/db.ts";
import { withSystem } from "../../platform/tenancy.ts";
import { type NewNotification, notify } from "../notifications/index.ts";
import { ticketsNearDue } from "../tickets/index.ts";

/**
 * SLA notifications without a rule: when the due time a ticket waits on next is close (less than SLA_WARNING_SHARE of
 * its target left) and when it has passed, the ticket's assignee, or every active admin when nobody is assigned (or
 * the assignee was deactivated), gets a bell notification. Once per ticket, per due time, per state (sla_notices);
 * a ticket found already breached gets only the breach. Checked by the automation-timers job at its clock.
 */

/** Tickets one organization is notified about per run at most; the next run takes the rest. */
const BATCH = 500;

const KIND_TEXT: Record<SlaKind, string> = { first_response: "First response", resolution: "Resolution" };

export async function notifySlaDue(db: Db, log?: FastifyBaseLogger): Promise<number> {
  // Organizations with any target: read as the owner role, across organizations (ids only).
  const orgs = await queryRows<{ organization_id: string }>(
    db,
    sql`select distinct organization_id from sla_targets
        where first_response_hours is not null or resolution_hours is not null`,
  );
  let sent = 0;
  for (const { organization_id: orgId } of orgs) {
    try {
      sent += await notifyOrganization(db, orgId);
    } catch (err) {
      log?.error({ err, orgId }, "SLA notifications failed");
    }
  }
  return sent;
}

async function notifyOrganization(db: Db, orgId: string): Promise<number> {
  const at = now().toISOString();
  return withSystem(db, orgId, "sla", async (ctx) => {
    const due = await queryRows<{
      id: string;
      ticket_number: number;
      subject: string;
      assignee_id: string | null;
      kind: SlaKind;
      state: "close" | "breached";
    }>(
      ctx.db,
      sql`select x.* from (${ticketsNearDue(orgId, at, SLA_WARNING_SHARE)}) x
          where not exists (select 1 from sla_notices n where n.organization_id = ${orgId} and n.ticket_id = x.id
                              and n.kind = x.kind and n.state = x.state)
          order by x.ticket_number
          limit ${BATCH}`,
    );
    if (due.length === 0) return 0;
    const members = await queryRows<{ id: string; role: string }>(
      ctx.db,
      sql`select id, role from users where organization_id = ${orgId} and status = 'active'`,
    );
    const admins = members.filter((m) => m.role === "admin").map((m) => m.id);
    const list: NewNotification[] = [];
    for (const ticket of due) {
      const states = ticket.state === "breached" ? ["close", "breached"] : ["close"];
      await ctx.db.execute(
        sql`insert into sla_notices (organization_id, ticket_id, kind, state)
            select ${orgId}, ${ticket.id}, ${ticket.kind}, s from unnest(${`{${states.join(",")}}`}::text[]) s
            on conflict do nothing`,
      );
      // Integrations (a Slack channel, webhooks) hear of a breach once, as the bell does.
      if (ticket.state === "breached")
        await ctx.emit("ticket.sla_breached", { ticket_id: ticket.id, kind: ticket.kind });
      const assignee = members.find((m) => m.id === ticket.assignee_id);
      const to = assignee ? [assignee.id] : admins;
      const what = ticket.state === "breached" ? "breached" : "is close to breach";
      for (const userId of to) {
        list.push({
          userId,
          type: ticket.state === "breached" ? "sla_breached" : "sla_warning",
          actorName: "SLA",
          title: `#${ticket.ticket_number} ${ticket.subject}`,
          excerpt: `${KIND_TEXT[ticket.kind]} ${what}`,
          link: `/tickets/${ticket.id}`,
          ticketId: ticket.id,
        });
      }
    }
    await notify(ctx, list);
    return due.length;
  });
}
