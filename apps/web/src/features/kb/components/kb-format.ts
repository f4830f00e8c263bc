import type { KbArticleStatus } from "@cove/contract/kb.ts";

export const ARTICLE_STATUS_LABELS: Record<KbArticleStatus, string> = { draft: "Draft", published: "Published" };

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const count = new Intl.NumberFormat("en-US");

function parse(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export const formatDate = (iso: string) => {
  const date = parse(iso);
  return date ? dateOnly.format(date) : iso;
};

export const formatDateTime = (iso: string) => {
  const date = parse(iso);
  return date ? dateTime.format(date) : iso;
};

export const formatCount = (n: number) => count.format(n);

/** "48 of 52" found it helpful, or "No votes" yet. */
export function helpfulText(helpful: number, notHelpful: number): string {
  const votes = helpful + notHelpful;
  return votes === 0 ? "No votes" : `${formatCount(helpful)} of ${formatCount(votes)}`;
}
