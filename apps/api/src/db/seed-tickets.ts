import type { TicketPriority, TicketStatus } from "@cove/contract/tickets.ts";
import { eq, sql } from "drizzle-orm";
import { findOrCreateContact } from "../modules/contacts/index.ts";
import type { Tx } from "../platform/db.ts";
import { organizations } from "./schema/organizations.ts";
import { ticketComments, ticketEvents, tickets } from "./schema/tickets.ts";

interface DemoTicket {
  subject: string;
  description: string;
  requester: [name: string, email: string];
  status: TicketStatus;
  priority: TicketPriority;
  /** Index into the team (0 admin, 1 and 2 agents), or null for unassigned. */
  assignee: number | null;
  daysAgo: number;
  tags?: string[];
  replies?: [author: number, body: string, isPublic: boolean][];
}

// Written for the demo: the everyday mail of a small outdoor-gear shop.
const DEMO_TICKETS: DemoTicket[] = [
  {
    subject: "Charged twice for order #4411",
    description:
      "Hi, my card statement shows two charges of $89.00 for the same order (#4411). Can you refund one of them?",
    requester: ["Jordan Blake", "jordan.blake@example.com"],
    status: "open",
    priority: "urgent",
    assignee: null,
    daysAgo: 0,
    tags: ["billing", "refund"],
  },
  {
    subject: "Tent pole snapped on first trip",
    description:
      "The front pole of my Ridgeline 2 tent snapped while pitching it. It was only the first use. Photos attached to my next mail.",
    requester: ["Sofia Marquez", "sofia.m@example.com"],
    status: "open",
    priority: "high",
    assignee: 1,
    daysAgo: 1,
    tags: ["warranty"],
    replies: [
      [
        1,
        "So sorry to hear that, Sofia! Could you send us a photo of the break and your order number? We'll ship a replacement pole right away.",
        true,
      ],
    ],
  },
  {
    subject: "Where is my package?",
    description: "Tracking has said 'label created' for five days now. Order #4388.",
    requester: ["Liam O'Connor", "liam.oconnor@example.com"],
    status: "pending",
    priority: "normal",
    assignee: 2,
    daysAgo: 2,
    tags: ["shipping"],
    replies: [
      [2, "The carrier missed the pickup; I've asked the warehouse to hand it over today.", false],
      [2, "Hi Liam, your parcel left our warehouse this morning. The tracking should update by tonight.", true],
    ],
  },
  {
    subject: "Do you ship to Canada?",
    description: "I'm in Toronto. Do you ship there, and how much would duties be?",
    requester: ["Mei Chen", "mei.chen@example.com"],
    status: "solved",
    priority: "low",
    assignee: 1,
    daysAgo: 3,
    tags: ["shipping"],
    replies: [
      [
        1,
        "Hi Mei! Yes, we ship to Canada. Duties are included at checkout, so there are no surprises at delivery.",
        true,
      ],
    ],
  },
  {
    subject: "Wrong size sleeping bag delivered",
    description: "I ordered the long version of the Summit 0° bag and received the regular.",
    requester: ["Noah Williams", "noah.w@example.com"],
    status: "open",
    priority: "normal",
    assignee: null,
    daysAgo: 0,
    tags: ["returns"],
  },
  {
    subject: "Discount code not working",
    description: "The code TRAIL15 from your newsletter says it's invalid.",
    requester: ["Ava Patel", "ava.patel@example.com"],
    status: "solved",
    priority: "normal",
    assignee: 2,
    daysAgo: 6,
    replies: [[2, "That code expired on Sunday, but I've applied 15% to your order manually. Enjoy!", true]],
  },
  {
    subject: "Stove won't light at altitude",
    description: "My Ember stove lit fine at home but not at 3,000 m. Is this normal?",
    requester: ["Lucas Meyer", "lucas.meyer@example.com"],
    status: "pending",
    priority: "normal",
    assignee: 0,
    daysAgo: 4,
    replies: [
      [
        0,
        "At altitude the canister pressure drops. Keep the canister warm inside your jacket before lighting. Did that help?",
        true,
      ],
    ],
  },
  {
    subject: "Request for invoice with VAT number",
    description: "Please reissue invoice for order #4302 with our company VAT number DE123456789.",
    requester: ["Hannah Schmidt", "h.schmidt@example.com"],
    status: "open",
    priority: "low",
    assignee: null,
    daysAgo: 5,
    tags: ["billing"],
  },
  {
    subject: "Backpack zipper broke",
    description: "The main zipper of my Trailhead 40 split after two months.",
    requester: ["Ethan Brooks", "ethan.brooks@example.com"],
    status: "closed",
    priority: "normal",
    assignee: 1,
    daysAgo: 12,
    tags: ["warranty"],
    replies: [[1, "A replacement pack is on its way. No need to send the old one back.", true]],
  },
  {
    subject: "Can I change my delivery address?",
    description: "I just placed order #4420 but I'll be away. Can it go to my office instead?",
    requester: ["Chloe Dubois", "chloe.dubois@example.com"],
    status: "solved",
    priority: "high",
    assignee: 2,
    daysAgo: 0,
    replies: [[2, "Done! Order #4420 will go to your office address.", true]],
  },
  {
    subject: "Rain jacket leaking at the seams",
    description: "The Storm Shell leaks along the shoulder seams in heavy rain.",
    requester: ["Oliver Grant", "oliver.grant@example.com"],
    status: "open",
    priority: "high",
    assignee: 0,
    daysAgo: 2,
    tags: ["warranty", "quality"],
  },
  {
    subject: "Gift card balance",
    description: "How do I check how much is left on my gift card?",
    requester: ["Isla Murphy", "isla.murphy@example.com"],
    status: "solved",
    priority: "low",
    assignee: 1,
    daysAgo: 9,
    replies: [[1, "You can see the balance at checkout after entering the code, or I can check it for you.", true]],
  },
  {
    subject: "Bulk order for our hiking club",
    description: "We'd like 25 headlamps for our club. Is there a group discount?",
    requester: ["Mateo Rossi", "mateo@trailclub.example"],
    status: "pending",
    priority: "normal",
    assignee: 0,
    daysAgo: 7,
    tags: ["sales"],
    replies: [[0, "Hi Mateo, for 25 units we can offer 20% off. Shall I send a quote?", true]],
  },
  {
    subject: "Account locked after password reset",
    description: "I reset my password and now I can't log in at all.",
    requester: ["Grace Kim", "grace.kim@example.com"],
    status: "open",
    priority: "urgent",
    assignee: 2,
    daysAgo: 0,
    tags: ["account"],
  },
  {
    subject: "Return label request",
    description: "I'd like to return the trekking poles, they're too short for me.",
    requester: ["Henry Walker", "henry.walker@example.com"],
    status: "solved",
    priority: "normal",
    assignee: 1,
    daysAgo: 15,
    tags: ["returns"],
    replies: [[1, "Here's your prepaid return label. Refunds go out within 3 days of receipt.", true]],
  },
  {
    subject: "Headlamp battery life question",
    description: "How long does the Beam 300 last on the medium setting?",
    requester: ["Zoe Turner", "zoe.turner@example.com"],
    status: "closed",
    priority: "low",
    assignee: null,
    daysAgo: 21,
  },
];

type DemoMember = { id: string; name: string; email: string };

/**
 * A demo ticket's activity, as the app would have written it: created by the requester; assigned by the admin ten
 * minutes later; set to pending with the last reply (a pending ticket waits on the customer); solved (or closed) at its
 * solve by whoever had it.
 */
function demoHistory(
  demo: DemoTicket,
  at: { orgId: string; ticketId: string; number: number; created: Date; solvedAt: Date | null },
  team: DemoMember[],
): (typeof ticketEvents.$inferInsert)[] {
  const minute = 60_000;
  const admin = team[0];
  const member = demo.assignee === null ? undefined : team[demo.assignee];
  const by = (who: DemoMember | undefined) => ({ actorId: who?.id ?? null, actorName: who?.name ?? "Cove" });
  const base = { organizationId: at.orgId, ticketId: at.ticketId };
  const events: (typeof ticketEvents.$inferInsert)[] = [
    { ...base, actorName: demo.requester[0], type: "created", toValue: `#${at.number}`, createdAt: at.created },
  ];
  if (member) {
    const assignedAt = new Date(Math.min(Date.now(), at.created.getTime() + 10 * minute));
    events.push({
      ...base,
      ...by(admin),
      type: "assignee",
      fromValue: null,
      toValue: member.name,
      createdAt: assignedAt,
    });
  }
  const replies = demo.replies ?? [];
  const last = replies.at(-1);
  if (demo.status === "pending" && last) {
    const repliedAt = new Date(at.created.getTime() + replies.length * 1_800_000);
    events.push({
      ...base,
      ...by(team[last[0]]),
      type: "status",
      fromValue: "open",
      toValue: "pending",
      createdAt: repliedAt,
    });
  }
  if (at.solvedAt) {
    const to = demo.status === "closed" ? "closed" : "solved";
    events.push({
      ...base,
      ...by(member ?? admin),
      type: "status",
      fromValue: "open",
      toValue: to,
      createdAt: at.solvedAt,
    });
  }
  return events;
}

/** Seeds demo tickets with replies and history for the demo organization; team is [admin, agent, agent]. */
export async function seedDemoTickets(tx: Tx, orgId: string, team: DemoMember[]) {
  const day = 86_400_000;
  let number = 0;
  for (const demo of DEMO_TICKETS) {
    number++;
    const member = demo.assignee === null ? null : team[demo.assignee];
    const done = demo.status === "solved" || demo.status === "closed";
    // Replies come half an hour apart and the solving after them: a ticket of today starts early enough for both to be
    // in the past (else a reply would read as written in half an hour, and the ticket as solved before it).
    const room = ((demo.replies?.length ?? 0) + (done ? 1 : 0)) * 1_800_000;
    const created = new Date(Math.min(Date.now() - demo.daysAgo * day - (number % 5) * 3_600_000, Date.now() - room));
    const solvedAt = done ? new Date(Math.min(Date.now(), created.getTime() + (2 + (number % 7)) * 3_600_000)) : null;
    // The requester becomes one of the organization's contacts, as for a ticket created through the API.
    const contactId = await findOrCreateContact(
      { orgId, db: tx },
      { name: demo.requester[0], email: demo.requester[1] },
    );
    const [row] = await tx
      .insert(tickets)
      .values({
        organizationId: orgId,
        contactId,
        ticketNumber: number,
        subject: demo.subject,
        description: demo.description,
        status: demo.status,
        priority: demo.priority,
        source: number % 3 === 0 ? "email" : "web",
        requesterName: demo.requester[0],
        requesterEmail: demo.requester[1],
        assigneeId: member?.id ?? null,
        tags: demo.tags ?? [],
        createdAt: created,
        // The last change: the solve, else the last reply (a pending ticket was set so with it).
        updatedAt: solvedAt ?? new Date(created.getTime() + (demo.replies?.length ?? 0) * 1_800_000),
        solvedAt,
      })
      .returning({ id: tickets.id });
    if (!row) throw new Error("demo ticket insert returned nothing");
    await tx
      .insert(ticketEvents)
      .values(demoHistory(demo, { orgId, ticketId: row.id, number, created, solvedAt }, team));
    for (const [i, [author, body, isPublic]] of (demo.replies ?? []).entries()) {
      const who = team[author];
      if (!who) continue;
      await tx.insert(ticketComments).values({
        organizationId: orgId,
        ticketId: row.id,
        authorId: who.id,
        authorName: who.name,
        authorEmail: who.email,
        body,
        isPublic,
        createdAt: new Date(created.getTime() + (i + 1) * 1_800_000),
      });
      await tx
        .update(tickets)
        .set({ commentsTsv: sql`${tickets.commentsTsv} || to_tsvector('english'::regconfig, ${body})` })
        .where(eq(tickets.id, row.id));
    }
  }
  await tx.update(organizations).set({ ticketSeq: number }).where(eq(organizations.id, orgId));
}
