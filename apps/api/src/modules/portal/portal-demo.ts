import type { PortalSessionAnswer } from "@cove/contract/portal.ts";
import type { TicketPriority, TicketStatus } from "@cove/contract/tickets.ts";
import { and, eq } from "drizzle-orm";
import { users } from "../../db/schema/users.ts";
import type { Db, Tx } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import { withSystem } from "../../platform/tenancy.ts";
import { markForSlaRecompute } from "../automation/index.ts";
import { endContactSessions, findOrCreateContact, renameContact } from "../contacts/index.ts";
import { insertPastSurvey } from "../csat/index.ts";
import { findDemoOrganization } from "../demo/index.ts";
import { deleteTicketsOfContact, insertPastTicket } from "../tickets/index.ts";
import { signIn } from "./portal-sign-in.service.ts";

/**
 * /customer-portal (spec: the demo customer portal): the demo organization's real portal, signed in as one fixed
 * customer. Visitors share that customer, so its data is put back as it was each time the server starts.
 */
export const DEMO_CUSTOMER = { name: "Sam Rivera", email: "sam.rivera@example.com", company: "Rivera Trail Club" };
const DEMO_SESSION_MS = 86_400_000;
const HOUR = 3_600_000;

interface DemoTicket {
  subject: string;
  description: string;
  status: TicketStatus;
  priority: TicketPriority;
  hoursAgo: number;
  /** Replies after the description: by the demo customer (null) or a member (index into the team), public or not. */
  replies: [author: number | null, body: string, isPublic: boolean][];
}

// Written for the demo: a customer of the outdoor-gear shop with one ticket in each state a customer meets.
const DEMO_TICKETS: DemoTicket[] = [
  {
    subject: "Exchange hiking boots for a larger size",
    description:
      "Hi! The Summit Mid boots I ordered (size 42) are a little tight at the toes. Can I exchange them for a 43? They have only been worn indoors.",
    status: "open",
    priority: "normal",
    hoursAgo: 20,
    replies: [
      [
        1,
        "Hi Sam, of course! Size 43 is in stock. I have reserved a pair for you and will send the return label shortly.",
        true,
      ],
      [1, "Reserved the 43 in the warehouse system; label still to print.", false],
    ],
  },
  {
    subject: "Where is my order #5120?",
    description: "My order #5120 was supposed to arrive on Monday but the tracking page has not moved for three days.",
    status: "pending",
    priority: "high",
    hoursAgo: 80,
    replies: [
      [
        2,
        "Sorry about the wait, Sam. The carrier lost the scan at their depot. Could you confirm the delivery address so we can send a replacement today?",
        true,
      ],
    ],
  },
  {
    subject: "Sleeping bag zipper gets stuck",
    description: "The zipper of my Alpine 0° sleeping bag keeps catching on the lining halfway down.",
    status: "solved",
    priority: "low",
    hoursAgo: 50,
    replies: [
      [null, "It happens on both sides, mostly when it is cold.", true],
      [
        1,
        "Thanks Sam! That model has a zipper guard you can slide back into place; here is how: hold the lining flat and run the slider slowly past the guard. If it still catches, we will replace the bag.",
        true,
      ],
      [null, "That fixed it, thank you!", true],
    ],
  },
];

/**
 * Puts the demo customer back as it started: its name and company, its three tickets with their conversations, and no
 * sessions (visitors get new ones). Runs at start-up, before the server listens; an install without the demo
 * organization is left alone.
 */
export async function resetDemoCustomer(db: Db): Promise<boolean> {
  const org = await findDemoOrganization(db);
  if (!org) return false;
  await db.transaction(async (tx) => {
    const ctx = { orgId: org.id, db: tx };
    const contactId = await findOrCreateContact(ctx, DEMO_CUSTOMER);
    await renameContact(ctx, contactId, { name: DEMO_CUSTOMER.name, company: DEMO_CUSTOMER.company });
    await endContactSessions(ctx, contactId, null);
    // Their replies, notes, activity and surveys go with the tickets.
    await deleteTicketsOfContact(ctx, contactId);
    await seedDemoTickets(ctx, contactId);
    // Written straight in: their SLA due times are worked out by the sla-recompute job (main.ts runs it next).
    await markForSlaRecompute(tx, org.id);
  });
  return true;
}

async function seedDemoTickets(ctx: { orgId: string; db: Tx }, contactId: string) {
  const team = await ctx.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.organizationId, ctx.orgId), eq(users.status, "active")))
    .orderBy(users.createdAt, users.email);
  for (const demo of DEMO_TICKETS) {
    const created = new Date(Date.now() - demo.hoursAgo * HOUR);
    const last = new Date(created.getTime() + demo.replies.length * HOUR);
    const solvedAt = demo.status === "solved" ? last : null;
    const assignee = team[1] ?? team[0] ?? null;
    const ticketId = await insertPastTicket(ctx, {
      contactId,
      subject: demo.subject,
      description: demo.description,
      status: demo.status,
      priority: demo.priority,
      source: "portal",
      requesterName: DEMO_CUSTOMER.name,
      requesterEmail: DEMO_CUSTOMER.email,
      assigneeId: assignee?.id ?? null,
      createdAt: created,
      updatedAt: last,
      solvedAt,
      replies: demo.replies.map(([author, body, isPublic], i) => {
        const member = author === null ? null : (team[author] ?? team[0]);
        return {
          authorId: member?.id ?? null,
          authorName: member ? `${member.firstName} ${member.lastName}` : DEMO_CUSTOMER.name,
          authorEmail: member ? member.email : DEMO_CUSTOMER.email,
          body,
          isPublic,
          at: new Date(created.getTime() + (i + 1) * HOUR),
        };
      }),
    });
    // Solved yesterday: the visitor can still rate it.
    if (solvedAt) await insertPastSurvey(ctx, { ticketId, contactId, agentId: assignee?.id ?? null, solvedAt });
  }
}

/** A session as the demo customer (created if the demo was never reset, e.g. right after a first seed). */
export async function startDemoSession(db: Db): Promise<PortalSessionAnswer> {
  const org = await findDemoOrganization(db);
  if (!org) throw new AppError("NOT_FOUND", "The demo customer portal is not set up on this server.");
  return withSystem(db, org.id, "portal", async (ctx) => {
    const contactId = await findOrCreateContact(ctx, DEMO_CUSTOMER);
    return signIn(ctx, org, contactId, DEMO_SESSION_MS);
  });
}
