import { CHAT_UNANSWERED_MINUTES } from "@cove/contract/chat.ts";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../platform/db.ts";
import { AppError } from "../../platform/errors.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { withSystem } from "../../platform/tenancy.ts";
import { chatToTicket } from "./chat-ticket.service.ts";

export const UNANSWERED_QUEUE: JobQueue<object> = {
  name: "chat-unanswered",
  retryLimit: 1,
  retryDelaySeconds: 30,
  retryBackoff: false,
  expireInSeconds: 5 * 60,
};
/** Every minute: a visitor waits at most about a minute past CHAT_UNANSWERED_MINUTES. */
const UNANSWERED_CRON = "* * * * *";
const BATCH = 100;

/**
 * Chats waiting for a person for CHAT_UNANSWERED_MINUTES whose visitor left an email become tickets: the visitor is
 * told the answer will come by email (issue 16). The scan reads every organization's waiting chats as the owner role,
 * by the index of waiting chats; each one then changes in its own organization's confinement.
 */
export async function ticketUnansweredChats(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - CHAT_UNANSWERED_MINUTES * 60_000);
  const waiting = await queryRows<{ id: string; organization_id: string }>(
    db,
    sql`select id, organization_id from chat_sessions
        where status = 'active' and waiting_for_human and visitor_email is not null and waiting_since <= ${cutoff}
        order by waiting_since limit ${BATCH}`,
  );
  let moved = 0;
  for (const chat of waiting) {
    try {
      await withSystem(db, chat.organization_id, "chat", (ctx) => chatToTicket(ctx, chat.id, { unanswered: true }));
      moved++;
    } catch (err) {
      // Answered or moved meanwhile: nothing to do. Anything else (a plan's ticket limit) leaves it waiting.
      if (!(err instanceof AppError)) throw err;
    }
  }
  return moved;
}

export function scheduleUnansweredChats(jobs: Jobs, db: Db): void {
  jobs.work(UNANSWERED_QUEUE, async () => {
    await ticketUnansweredChats(db);
  });
  jobs.schedule(UNANSWERED_QUEUE, UNANSWERED_CRON);
}
