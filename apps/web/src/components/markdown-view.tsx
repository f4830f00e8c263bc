import { clsx } from "clsx";
import { useMemo } from "react";
import { renderChatMarkdown, renderMarkdown } from "../lib/render-markdown.ts";

/** Typography for rendered articles, kept here so no global stylesheet is needed. */
const prose = clsx(
  "min-w-0 text-base leading-7 break-words text-slate-700",
  "[&_h1]:mt-8 [&_h1]:mb-4 [&_h1]:text-2xl [&_h1]:font-semibold [&_h1]:text-slate-900",
  "[&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900",
  "[&_h3]:mt-6 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-slate-900",
  "[&_h4]:mt-4 [&_h4]:font-semibold [&_h5]:font-semibold [&_h6]:font-semibold",
  "[&>:first-child]:mt-0 [&_p]:my-4",
  "[&_ul]:my-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1",
  "[&_a]:font-medium [&_a]:text-indigo-700 [&_a]:underline [&_a:hover]:text-indigo-500",
  "[&_strong]:font-semibold [&_strong]:text-slate-900",
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-sm",
  "[&_pre]:my-4 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-slate-100",
  "[&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_blockquote]:my-4 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-4 [&_blockquote]:italic",
  "[&_hr]:my-8 [&_hr]:border-slate-200 [&_img]:my-4 [&_img]:max-w-full [&_img]:rounded-md",
  "[&_table]:my-4 [&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:text-sm",
  "[&_th]:border-b [&_th]:border-slate-300 [&_th]:px-3 [&_th]:py-2 [&_th]:text-left [&_th]:font-semibold",
  "[&_td]:border-b [&_td]:border-slate-100 [&_td]:px-3 [&_td]:py-2",
);

/**
 * An assistant's answer in a chat bubble: the same elements as an article, in the bubble's small type, with tight
 * spacing and wide tables scrolling inside the bubble.
 */
const chatProse = clsx(
  "min-w-0 text-sm leading-6 break-words",
  "[&>:first-child]:mt-0 [&>:last-child]:mb-0 [&_p]:my-2",
  "[&_h1]:my-2 [&_h2]:my-2 [&_h3]:my-2 [&_h1]:font-semibold [&_h2]:font-semibold [&_h3]:font-semibold [&_h4]:font-semibold",
  "[&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:pl-5 [&_li]:my-0.5",
  "[&_a]:font-medium [&_a]:text-indigo-700 [&_a]:underline",
  "[&_strong]:font-semibold",
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-xs",
  "[&_pre]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-900 [&_pre]:p-2 [&_pre]:text-slate-100",
  "[&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_blockquote]:my-2 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-200 [&_blockquote]:pl-3",
  "[&_img]:my-2 [&_img]:max-w-full [&_img]:rounded-md",
  "[&_table]:my-2 [&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:text-xs",
  "[&_th]:border-b [&_th]:border-slate-300 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_th]:font-semibold",
  "[&_td]:border-b [&_td]:border-slate-100 [&_td]:px-2 [&_td]:py-1",
);

/**
 * Markdown rendered to sanitized HTML (see render-markdown.ts): an article body, or (`chat`) an assistant's answer in a
 * chat, whose line breaks are kept.
 */
export function MarkdownView({ source, className, chat }: { source: string; className?: string; chat?: boolean }) {
  const html = useMemo(() => (chat ? renderChatMarkdown(source) : renderMarkdown(source)), [source, chat]);
  return (
    <div
      data-markdown=""
      className={clsx(chat ? chatProse : prose, className)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes raw HTML and sanitizes the result
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
