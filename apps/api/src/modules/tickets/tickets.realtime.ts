import { isUuid } from "@cove/contract/ids.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { queryRows } from "../../platform/db.ts";

/**
 * What the tickets module offers over the realtime socket: `tickets` (the organization's lists and dashboard figures,
 * staff) and `ticket:<id>` (one ticket: staff of its organization, or the contact whose ticket it is; staff also see
 * who else is viewing or replying). Events say what changed by id; browsers refetch through the API.
 */
export function registerTicketTopics(app: FastifyInstance): void {
  app.realtime.topic({
    name: "tickets",
    withArgument: false,
    authorize: async () => "tickets",
  });

  app.realtime.topic({
    name: "ticket",
    withArgument: true,
    actors: ["staff", "contact"],
    presence: true,
    // Read as the owner role by id and organization (and contact): another organization's ticket is not found.
    authorize: async (principal, id) => {
      if (!id || !isUuid(id)) return null;
      const contactId = principal.kind === "contact" ? principal.contactId : null;
      const rows = await queryRows<{ id: string }>(
        app.db,
        sql`select id from tickets where id = ${id} and organization_id = ${principal.orgId}
              and (${contactId}::uuid is null or contact_id = ${contactId}::uuid)`,
      );
      return rows.length > 0 ? `ticket:${id}` : null;
    },
  });

  app.realtime.route(["ticket.created", "ticket.updated", "ticket.assigned"], (event) => [
    { topic: "tickets", kinds: ["staff"] },
    { topic: `ticket:${event.data.ticket_id}`, kinds: ["staff"] },
  ]);
  // A customer sees their ticket's status and the public replies; nothing about assignees or internal notes.
  app.realtime.route(["ticket.status_changed"], (event) => [
    { topic: "tickets", kinds: ["staff"] },
    { topic: `ticket:${event.data.ticket_id}` },
  ]);
  app.realtime.route(["comment.added"], (event) => [
    { topic: "tickets", kinds: ["staff"] },
    { topic: `ticket:${event.data.ticket_id}`, kinds: event.data.is_public ? undefined : ["staff"] },
  ]);
  // Lists and details show members' names, and the dashboard counts active members.
  app.realtime.route(["member.changed", "member.joined", "member.invited", "member.removed"], () => [
    { topic: "tickets", kinds: ["staff"] },
  ]);
}
