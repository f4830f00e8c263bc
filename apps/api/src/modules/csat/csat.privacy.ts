import { and, asc, eq, isNotNull } from "drizzle-orm";
import { csatSurveys } from "../../db/schema/csat.ts";
import type { TenantCtx } from "../../platform/tenancy.ts";

/** A customer's satisfaction answers for their data request (modules/privacy), in the caller's transaction. */
type CsatCtx = Pick<TenantCtx, "orgId" | "db">;

export interface CustomerSurveyExport {
  ticket_id: string;
  rating: string | null;
  comment: string | null;
  answered_at: string | null;
}

/** The surveys the customer answered, oldest first. */
export async function customerSurveyAnswers(ctx: CsatCtx, contactId: string): Promise<CustomerSurveyExport[]> {
  const rows = await ctx.db
    .select()
    .from(csatSurveys)
    .where(
      and(
        eq(csatSurveys.organizationId, ctx.orgId),
        eq(csatSurveys.contactId, contactId),
        isNotNull(csatSurveys.answeredAt),
      ),
    )
    .orderBy(asc(csatSurveys.answeredAt));
  return rows.map((r) => ({
    ticket_id: r.ticketId,
    rating: r.rating,
    comment: r.comment,
    answered_at: r.answeredAt ? r.answeredAt.toISOString() : null,
  }));
}

/** Deletes the customer's surveys, answered or not (their links stop working). Answers how many. */
export async function deleteSurveysOfContact(ctx: CsatCtx, contactId: string): Promise<number> {
  const gone = await ctx.db
    .delete(csatSurveys)
    .where(and(eq(csatSurveys.organizationId, ctx.orgId), eq(csatSurveys.contactId, contactId)))
    .returning({ id: csatSurveys.id });
  return gone.length;
}
