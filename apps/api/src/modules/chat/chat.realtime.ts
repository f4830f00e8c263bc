import { isUuid } from "@cove/contract/ids.ts";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { queryRows } from "../../platform/db.ts";

/**
 * What live chat offers over the realtime socket: `chat` (the organization's sessions and figures, staff) and
 * `chat_session:<id>` (one conversation: staff of its organization, or the visitor whose session it is). Events name
 * what changed by id; screens refetch through the API with their own rights.
 */
export function registerChatTopics(app: FastifyInstance): void {
  app.realtime.topic({ name: "chat", withArgument: false, authorize: async () => "chat" });

  app.realtime.topic({
    name: "chat_session",
    withArgument: true,
    actors: ["staff", "contact"],
    // Typing both ways: the team sees the visitor typing, the visitor sees the team typing (by first name, no id).
    presence: true,
    contactPresence: true,
    // Read as the owner role by id and organization (and contact): another organization's session is not found.
    authorize: async (principal, id) => {
      if (!id || !isUuid(id)) return null;
      const contactId = principal.kind === "contact" ? principal.contactId : null;
      const rows = await queryRows<{ id: string }>(
        app.db,
        sql`select id from chat_sessions where id = ${id} and organization_id = ${principal.orgId}
              and (${contactId}::uuid is null or contact_id = ${contactId}::uuid)`,
      );
      return rows.length > 0 ? `chat_session:${id}` : null;
    },
  });

  app.realtime.route(["chat.session_started", "chat.handed_off"], () => [{ topic: "chat", kinds: ["staff"] }]);
  app.realtime.route(["chat.message_added", "chat.session_changed"], (event) => [
    { topic: "chat", kinds: ["staff"] },
    { topic: `chat_session:${event.data.session_id}` },
  ]);
}
