import {
  CSAT_CHANGE_DAYS,
  CSAT_PERIOD_DAYS,
  CSAT_QUESTION,
  type CsatRating,
  type CsatScore,
  type CsatStatsAnswer,
  csatScore,
  type Satisfaction,
  type SurveyAnswer,
} from "@cove/contract/csat.ts";
import type { DomainEvent } from "@cove/contract/events.ts";
import { portalPath } from "@cove/contract/portal.ts";
import type { TicketRating } from "@cove/contract/tickets.ts";
import { and, eq, isNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { csatSurveys } from "../../db/schema/csat.ts";
import { hashToken, newToken } from "../../platform/auth.ts";
import { type Db, type Queryable, queryRows, type Tx } from "../../platform/db.ts";
import { AppError, notFound } from "../../platform/errors.ts";
import type { EventContext } from "../../platform/events.ts";
import type { Jobs } from "../../platform/jobs.ts";
import { composeMail, mailBrand } from "../../platform/mail.ts";
import { type Ctx, emitterIn, type TenantCtx, withSystem, withVisitor } from "../../platform/tenancy.ts";
import { chatRatings } from "../chat/index.ts";
import { findContactCard } from "../contacts/index.ts";
import { readBrand } from "../settings/index.ts";
import { findTicketBasics } from "../tickets/index.ts";

const DAY = 86_400_000;

export const SURVEY_CLOSED = `This survey has closed: an answer can be given or changed for ${CSAT_CHANGE_DAYS} days after a ticket is solved.`;
export const TICKET_REOPENED = "This ticket was opened again: you can rate it once it is solved.";

interface SurveyRow {
  id: string;
  rating: CsatRating | null;
  comment: string | null;
  expires_at: Date | string;
}

function toSatisfaction(row: SurveyRow): Satisfaction {
  const until = new Date(row.expires_at);
  return {
    rating: row.rating,
    comment: row.comment,
    changeable_until: until.toISOString(),
    can_change: until.getTime() > Date.now(),
  };
}

/**
 * The customer's answer to a ticket's survey, as staff see it on the ticket: JSON of the contract's TicketRating
 * (rated_at as PostgreSQL writes a time in JSON), null before an answer or without a survey. A scalar subquery, so
 * that a ticket's detail reads it in its one statement (app.ts hands it to the tickets module: tickets.parts.ts).
 */
export const ticketRatingJson = (orgId: SQLWrapper, ticketId: SQLWrapper) =>
  sql<TicketRating | null>`(select json_build_object('rating', s.rating, 'comment', nullif(s.comment, ''),
       'rated_at', s.answered_at) from ${csatSurveys} s
     where s.organization_id = ${orgId} and s.ticket_id = ${ticketId}
       and s.rating is not null and s.answered_at is not null)`;

/** The same rating on its own (a webhook's payload), rated_at in ISO 8601 UTC. */
export async function ratingOfTicket(db: Queryable, orgId: string, ticketId: string): Promise<TicketRating | null> {
  const [row] = await queryRows<{ rating: TicketRating | null }>(
    db,
    sql`select ${ticketRatingJson(sql`${orgId}::uuid`, sql`${ticketId}::uuid`)} as rating`,
  );
  const rating = row?.rating;
  return rating ? { ...rating, rated_at: new Date(rating.rated_at).toISOString() } : null;
}

/** A ticket's survey (for its customer: the contact role reads only its own). */
export async function surveyOfTicket(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  ticketId: string,
): Promise<Satisfaction | null> {
  const [row] = await queryRows<SurveyRow>(
    ctx.db,
    sql`select id, rating, comment, expires_at from csat_surveys
        where organization_id = ${ctx.orgId} and ticket_id = ${ticketId}`,
  );
  return row ? toSatisfaction(row) : null;
}

/**
 * In the transaction that solves a ticket: its customer's survey opens (or opens again, for a new solve, keeping an
 * answer already given), so the portal asks at once. The email follows from the job queue (mailSurvey). A ticket whose
 * customer has no email (nobody could answer) gets none.
 */
export async function openSurvey(ctx: EventContext, event: DomainEvent<"ticket.status_changed">): Promise<void> {
  if (event.data.to !== "solved") return;
  const ticket = await findTicketBasics(ctx.db, ctx.orgId, event.data.ticket_id);
  if (!ticket?.solvedAt || !ticket.contactId) return;
  const contact = await findContactCard(ctx.db, ctx.orgId, ticket.contactId);
  if (!contact?.email) return;
  // The agent the answer is credited to: the ticket's assignee, else the member who solved it.
  const agentId = ticket.assigneeId ?? (event.actor.kind === "staff" ? event.actor.id : null);
  const solvedAt = ticket.solvedAt;
  await ctx.db.execute(
    sql`insert into csat_surveys as s (organization_id, ticket_id, contact_id, agent_id, solved_at, expires_at)
        values (${ctx.orgId}, ${event.data.ticket_id}, ${ticket.contactId}, ${agentId},
                ${solvedAt.toISOString()}::timestamptz, ${new Date(solvedAt.getTime() + CSAT_CHANGE_DAYS * DAY).toISOString()}::timestamptz)
        on conflict (organization_id, ticket_id) do update
          set contact_id = excluded.contact_id, agent_id = excluded.agent_id, solved_at = excluded.solved_at,
              expires_at = excluded.expires_at, updated_at = now(),
              -- Unanswered: a new email (with a new link) asks again; answered: the answer and its link stand.
              token_hash = case when s.rating is null then null else s.token_hash end
          where s.solved_at is distinct from excluded.solved_at`,
  );
}

/**
 * A survey of a ticket solved in the past, written in the caller's transaction (the demo customer's reset: its solved
 * ticket can still be rated for CSAT_CHANGE_DAYS from when it was solved).
 */
export async function insertPastSurvey(
  ctx: Pick<TenantCtx, "orgId" | "db">,
  survey: { ticketId: string; contactId: string; agentId: string | null; solvedAt: Date },
): Promise<void> {
  await ctx.db.insert(csatSurveys).values({
    organizationId: ctx.orgId,
    ...survey,
    expiresAt: new Date(survey.solvedAt.getTime() + CSAT_CHANGE_DAYS * DAY),
  });
}

/** What mailing a survey needs besides the event: the queue and the base of the link. */
export interface SurveyMail {
  jobs: Jobs;
  publicUrl: string;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The durable handler of a solved ticket: emails the open survey's link to the customer, once per solve (the survey's
 * token is set in the same transaction that queues the mail, so a repeated event finds it sent). Nothing is sent if
 * the ticket was opened again meanwhile, or the customer already answered.
 */
export async function mailSurvey(db: Db, mail: SurveyMail, event: DomainEvent<"ticket.status_changed">) {
  if (event.data.to !== "solved") return;
  await withSystem(db, event.organization_id, "csat", async (ctx) => {
    const [survey] = await queryRows<{ id: string; contact_id: string; solved_at: Date | string }>(
      ctx.db,
      sql`select s.id, s.contact_id, s.solved_at from csat_surveys s
          where s.organization_id = ${ctx.orgId} and s.ticket_id = ${event.data.ticket_id}
            and s.token_hash is null and s.rating is null and s.expires_at > now()`,
    );
    if (!survey) return;
    // Still solved by the solve that opened the survey, and its customer has an email to write to.
    const ticket = await findTicketBasics(ctx.db, ctx.orgId, event.data.ticket_id);
    if (ticket?.status !== "solved" || ticket.solvedAt?.getTime() !== new Date(survey.solved_at).getTime()) return;
    const customer = await findContactCard(ctx.db, ctx.orgId, survey.contact_id);
    if (!customer?.email) return;
    const org = await readBrand(ctx.db, ctx.orgId);
    const row = {
      id: survey.id,
      ticket_number: ticket.ticketNumber,
      subject: ticket.subject,
      customer: customer.name,
      email: customer.email,
      organization: org.name,
      slug: org.slug,
    };
    const token = newToken();
    const [claimed] = await ctx.db
      .update(csatSurveys)
      .set({ tokenHash: hashToken(token), updatedAt: new Date() })
      .where(and(eq(csatSurveys.organizationId, ctx.orgId), eq(csatSurveys.id, row.id), isNull(csatSurveys.tokenHash)))
      .returning({ id: csatSurveys.id });
    if (!claimed) return;
    const organization = oneLine(row.organization);
    const named = `#${row.ticket_number} “${short(oneLine(row.subject), 80)}”`;
    await mail.jobs.sendMail(
      ctx.db,
      composeMail({
        brand: mailBrand(org, mail.publicUrl),
        to: row.email,
        subject: `How did we do? Your request #${row.ticket_number} was solved`,
        intro: [
          `Hello ${oneLine(row.customer)},`,
          `Your request ${named} to ${organization} has been solved.`,
          `${CSAT_QUESTION} Good or Bad, with a comment if you like: it takes a few seconds.`,
        ],
        action: {
          label: "Rate the support",
          url: `${mail.publicUrl}${portalPath(row.slug)}/satisfaction?token=${token}`,
        },
        outro: [
          `You can answer, or change your answer, for ${CSAT_CHANGE_DAYS} days. If the problem is not solved after all, reply to the ticket in the support portal and the team will pick it up again.`,
        ],
      }),
    );
  });
}

interface AnswerableRow extends SurveyRow {
  status: string;
}

/** Records an answer (or a changed one) on a survey whose ticket is still solved or closed, within its week. */
async function answer(
  db: Tx,
  orgId: string,
  survey: AnswerableRow,
  input: { rating: CsatRating; comment: string | null },
  emit: TenantCtx["emit"],
  ticketId: string,
): Promise<Satisfaction> {
  if (survey.status !== "solved" && survey.status !== "closed") throw new AppError("CONFLICT", TICKET_REOPENED);
  if (new Date(survey.expires_at).getTime() <= Date.now()) throw new AppError("CONFLICT", SURVEY_CLOSED);
  const [row] = await db
    .update(csatSurveys)
    .set({ rating: input.rating, comment: input.comment, answeredAt: new Date(), updatedAt: new Date() })
    .where(and(eq(csatSurveys.organizationId, orgId), eq(csatSurveys.id, survey.id)))
    .returning({
      id: csatSurveys.id,
      rating: csatSurveys.rating,
      comment: csatSurveys.comment,
      expires_at: csatSurveys.expiresAt,
    });
  if (!row) throw notFound("Survey");
  await emit("csat.rated", { ticket_id: ticketId, rating: input.rating });
  return toSatisfaction(row);
}

/** A survey with its ticket's status now (through tickets), or null when there is none. */
async function answerable(db: Tx, orgId: string, which: SQL): Promise<AnswerableRow | null> {
  const [survey] = await queryRows<SurveyRow & { ticket_id: string }>(
    db,
    sql`select s.id, s.rating, s.comment, s.expires_at, s.ticket_id from csat_surveys s
        where s.organization_id = ${orgId} and ${which}`,
  );
  const ticket = survey && (await findTicketBasics(db, orgId, survey.ticket_id));
  return survey && ticket ? { ...survey, status: ticket.status } : null;
}

/** The signed-in customer rates one of their solved tickets (the portal). */
export async function rateMyTicket(
  ctx: TenantCtx & { contactId: string },
  ticketId: string,
  input: { rating: CsatRating; comment: string | null },
): Promise<Satisfaction> {
  const survey = await answerable(
    ctx.db,
    ctx.orgId,
    sql`s.ticket_id = ${ticketId} and s.contact_id = ${ctx.contactId}`,
  );
  if (!survey) {
    throw new AppError("NOT_FOUND", "There is nothing to rate yet: a ticket can be rated once it is solved.");
  }
  return answer(ctx.db, ctx.orgId, survey, input, ctx.emit, ticketId);
}

/**
 * The emailed link's survey. The token is all the customer has (no sign-in), so it is looked up by its hash before
 * any organization is known, as the owner role, like a sign-in link; everything after runs confined to that
 * organization.
 */
async function bySurveyToken<T>(
  db: Db,
  token: string,
  fn: (v: { orgId: string; db: Tx }, found: { id: string; ticketId: string; contactId: string }) => Promise<T>,
): Promise<T> {
  const [found] = await db
    .select({
      id: csatSurveys.id,
      orgId: csatSurveys.organizationId,
      ticketId: csatSurveys.ticketId,
      contactId: csatSurveys.contactId,
    })
    .from(csatSurveys)
    .where(eq(csatSurveys.tokenHash, hashToken(token)))
    .limit(1);
  if (!found) throw notFound("Survey");
  return withVisitor(db, found.orgId, (v) => fn(v, found));
}

/** The organization of an emailed link's survey (null: no such survey), to refuse the answer while it is read-only. */
export async function surveyOrganization(db: Db, token: string): Promise<string | null> {
  const [found] = await db
    .select({ orgId: csatSurveys.organizationId })
    .from(csatSurveys)
    .where(eq(csatSurveys.tokenHash, hashToken(token)))
    .limit(1);
  return found?.orgId ?? null;
}

export function lookupSurvey(db: Db, token: string): Promise<SurveyAnswer> {
  return bySurveyToken(db, token, async (v, found) => {
    const [row] = await queryRows<SurveyRow & { organization: string; slug: string }>(
      v.db,
      sql`select s.id, s.rating, s.comment, s.expires_at, o.name as organization, o.slug
          from csat_surveys s
          join organizations o on o.id = s.organization_id
          where s.organization_id = ${v.orgId} and s.id = ${found.id}`,
    );
    const ticket = row && (await findTicketBasics(v.db, v.orgId, found.ticketId));
    if (!row || !ticket) throw notFound("Survey");
    return {
      organization: { name: row.organization, slug: row.slug },
      ticket: { ticket_number: ticket.ticketNumber, subject: ticket.subject },
      satisfaction: toSatisfaction(row),
    };
  });
}

export function rateByToken(
  db: Db,
  input: { token: string; rating: CsatRating; comment: string | null },
): Promise<Satisfaction> {
  return bySurveyToken(db, input.token, async (v, found) => {
    const survey = await answerable(v.db, v.orgId, sql`s.id = ${found.id}`);
    if (!survey) throw notFound("Survey");
    // The answer is the customer's own, whether given here or in the portal.
    const emit = emitterIn(db, v.db, v.orgId, { kind: "contact", id: found.contactId });
    return answer(v.db, v.orgId, survey, input, emit, found.ticketId);
  });
}

const score = (good: number, bad: number): CsatScore => ({ good, bad, score: csatScore(good, bad) });

/** The dashboard's satisfaction figures: answers given in the last 30 days, by who resolved, and per agent. */
export async function csatStats(ctx: Ctx): Promise<CsatStatsAnswer> {
  const since = sql`now() - ${CSAT_PERIOD_DAYS}::int * interval '1 day'`;
  const [totals] = await queryRows<{ sent: number; good: number; bad: number }>(
    ctx.db,
    sql`select count(*) filter (where solved_at > ${since})::int as sent,
                 count(*) filter (where answered_at > ${since} and rating = 'good')::int as good,
                 count(*) filter (where answered_at > ${since} and rating = 'bad')::int as bad
          from csat_surveys where organization_id = ${ctx.orgId} and (solved_at > ${since} or answered_at > ${since})`,
  );
  const agents = await queryRows<{
    agent_id: string | null;
    first_name: string | null;
    last_name: string | null;
    good: number;
    bad: number;
  }>(
    ctx.db,
    sql`select s.agent_id, u.first_name, u.last_name,
                 count(*) filter (where s.rating = 'good')::int as good,
                 count(*) filter (where s.rating = 'bad')::int as bad
          from csat_surveys s
          left join users u on u.organization_id = s.organization_id and u.id = s.agent_id
          where s.organization_id = ${ctx.orgId} and s.answered_at > ${since} and s.rating is not null
          group by s.agent_id, u.first_name, u.last_name
          order by count(*) desc, u.first_name, u.last_name`,
  );
  // Live chats answer "How did we do?" in the widget: those the assistant resolved alone are the AI's half.
  const chats = await chatRatings(ctx, CSAT_PERIOD_DAYS);
  const people = score((totals?.good ?? 0) + chats.people.good, (totals?.bad ?? 0) + chats.people.bad);
  const ai = { ...score(chats.ai.good, chats.ai.bad), available: true };
  return {
    period_days: CSAT_PERIOD_DAYS,
    surveys_sent: (totals?.sent ?? 0) + chats.asked,
    overall: score(people.good + ai.good, people.bad + ai.bad),
    people,
    ai,
    agents: agents.map((a) => ({
      agent_id: a.agent_id,
      first_name: a.first_name ?? "",
      last_name: a.last_name ?? "",
      ...score(a.good, a.bad),
    })),
  };
}
