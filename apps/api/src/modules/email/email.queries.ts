import { UNFILED_MAIL_SHOWN, type UnfiledMail } from "@cove/contract/email.ts";
import { sql } from "drizzle-orm";
import { queryRows } from "../../platform/db.ts";
import { notFound } from "../../platform/errors.ts";
import type { Ctx } from "../../platform/tenancy.ts";

/** The latest messages the receiver kept without filing (bounces, auto-replies, throttled, unreadable), newest first. */
export async function listUnfiled(ctx: Ctx): Promise<UnfiledMail[]> {
  const rows = await queryRows<{
    id: string;
    created_at: Date | string;
    address: string;
    subject: string;
    status: "ignored" | "rejected";
    reason: string | null;
    has_raw: boolean;
  }>(
    ctx.db,
    sql`select id, created_at, address, subject, status, reason, raw is not null as has_raw
        from email_messages
        where organization_id = ${ctx.orgId} and direction = 'in' and status in ('ignored', 'rejected')
        order by created_at desc, id desc limit ${UNFILED_MAIL_SHOWN}`,
  );
  return rows.map((r) => ({
    id: r.id,
    received_at: new Date(r.created_at).toISOString(),
    address: r.address,
    subject: r.subject,
    status: r.status,
    reason: r.reason,
    has_raw: r.has_raw,
  }));
}

/** The raw text kept of an unfiled message. */
export async function unfiledRaw(ctx: Ctx, id: string): Promise<string> {
  const [row] = await queryRows<{ raw: string }>(
    ctx.db,
    sql`select raw from email_messages
        where organization_id = ${ctx.orgId} and id = ${id} and direction = 'in' and raw is not null`,
  );
  if (!row) throw notFound("Message");
  return row.raw;
}
