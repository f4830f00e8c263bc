import { z } from "zod";

/**
 * Canned replies (docs/product.md, "Beyond the brief"): an organization's saved replies, inserted from the reply box with their
 * placeholders ({{ticket.requester_name}} and the others of COMMENT_PLACEHOLDERS) filled from the ticket.
 */
export const CANNED_TITLE_MAX = 120;
export const CANNED_BODY_MAX = 10_000;
export const CANNED_REPLIES_MAX = 500;

const noNul = (s: string) => !s.includes("\u0000");

export const cannedReplyBody = z.strictObject({
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(CANNED_TITLE_MAX, `Title must be at most ${CANNED_TITLE_MAX} characters`)
    .refine(noNul, "Title contains an invalid character"),
  body: z
    .string({ error: "Reply is required" })
    .trim()
    .min(1, "Reply is required")
    .max(CANNED_BODY_MAX, `Reply must be at most ${CANNED_BODY_MAX} characters`)
    .refine(noNul, "Reply contains an invalid character"),
});
export type CannedReplyBody = z.input<typeof cannedReplyBody>;

export const cannedReplySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  updated_at: z.string(),
});
export type CannedReply = z.infer<typeof cannedReplySchema>;
export const cannedReplyAnswer = z.object({ canned_reply: cannedReplySchema });
export const cannedReplyListAnswer = z.object({ canned_replies: z.array(cannedReplySchema) });
export type CannedReplyListAnswer = z.infer<typeof cannedReplyListAnswer>;

const PLACEHOLDER = /\{\{\s*(ticket\.[a-z_]+)\s*\}\}/g;

/** {{ticket.requester_name}} and the like, filled from values; an unknown placeholder stays as written. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => values[key] ?? whole);
}
