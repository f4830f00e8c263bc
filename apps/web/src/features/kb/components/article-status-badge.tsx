import type { KbArticleStatus } from "@cove/contract/kb.ts";
import { clsx } from "clsx";
import { ARTICLE_STATUS_LABELS } from "./kb-format.ts";

const classes: Record<KbArticleStatus, string> = {
  draft: "bg-slate-100 text-slate-700 ring-slate-500/20",
  published: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
};

export function ArticleStatusBadge({ status }: { status: KbArticleStatus }) {
  return (
    <span
      data-status={status}
      className={clsx(
        "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        classes[status],
      )}
    >
      {ARTICLE_STATUS_LABELS[status]}
    </span>
  );
}
