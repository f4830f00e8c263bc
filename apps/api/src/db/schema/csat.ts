import { CSAT_RATINGS } from "@cove/contract/csat.ts";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { refCascade, refSetNull, timestamps, timestamptz } from "./columns.ts";
import { contacts } from "./contacts.ts";
import { tenantRow } from "./organizations.ts";
import { tickets } from "./tickets.ts";
import { users } from "./users.ts";

/**
 * One satisfaction survey per solved ticket, sent to its customer (the contact) when it is solved. The answer can be
 * given or changed until expires_at (a week after the latest solve). It is created in the transaction that solves the
 * ticket (so the portal asks at once); the email follows from the job queue with a link whose token is stored only as
 * its sha256.
 */
export const csatSurveys = pgTable(
  "csat_surveys",
  {
    ...tenantRow(),
    ticketId: refCascade("ticket_id", () => tickets.id).notNull(),
    contactId: refCascade("contact_id", () => contacts.id).notNull(),
    /** The agent credited with the resolution: the assignee when the ticket was solved, else whoever solved it. */
    agentId: refSetNull("agent_id", () => users.id),
    /** Set when the survey is emailed (null until then, and again when a new solve asks anew). */
    tokenHash: text("token_hash"),
    /** The solve this survey asks about (the ticket's solved_at then): a retried or repeated event finds it done. */
    solvedAt: timestamptz("solved_at").notNull(),
    expiresAt: timestamptz("expires_at").notNull(),
    rating: text("rating", { enum: CSAT_RATINGS }),
    comment: text("comment"),
    answeredAt: timestamptz("answered_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("csat_surveys_org_ticket_unique").on(t.organizationId, t.ticketId),
    uniqueIndex("csat_surveys_token_hash_unique").on(t.tokenHash),
    index("csat_surveys_org_answered_idx").on(t.organizationId, t.answeredAt),
    index("csat_surveys_org_solved_idx").on(t.organizationId, t.solvedAt),
  ],
);
