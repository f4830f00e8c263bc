import { z } from "zod";

/**
 * How every list that pages answers: by page number, and by cursor (next_cursor: pass it back as `cursor` for the
 * rows after the last one shown). A cursor names the last row's place in the list's order, not an offset, so rows
 * added or moved while a program walks the list never make it see a row twice or skip one that stayed in place.
 */
export const paginationSchema = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
  /** Search only: more tickets match than a search ranks (SEARCH_CANDIDATES); total is that many. */
  capped: z.boolean().optional(),
  /** The cursor of the rows after this page, or null when this page is the last. */
  next_cursor: z.string().nullable(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const CURSOR_MAX = 1000;

export const pageParam = z.coerce
  .number({ error: "page must be a number" })
  .int("page must be a whole number")
  .min(1, "page starts at 1")
  .max(100_000, "page is too large")
  .default(1);

export const cursorParam = z
  .string()
  .max(CURSOR_MAX, "cursor is not one this list gave out")
  .optional()
  .describe("next_cursor of the previous page: the rows after it (page is then ignored)");
