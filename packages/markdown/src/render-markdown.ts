import { ANSWER_TAGS } from "@cove/contract/chat.ts";
import DOMPurify, { type WindowLike } from "dompurify";
import MarkdownIt from "markdown-it";

/*
 * Markdown to HTML that is safe to put in a page, shared by the help center (articles, in the browser), the staff app
 * (the assistant's answers) and the API (the assistant's answers for the chat widget, rendered on a jsdom window), so
 * an answer reads in the chat as its article does in the help center. Text is written by one person and read by
 * others (customers, the whole team), so the HTML must not be able to run anything. Two independent layers
 * (docs/decisions/2026-11-23-knowledge-base.md):
 * 1. markdown-it with `html: false`: raw HTML in the text comes out as escaped text, and its link check refuses
 *    javascript:, vbscript:, file: and non-image data: addresses.
 * 2. DOMPurify with an allow-list of exactly the elements Markdown produces and a narrow address rule, in case a parser
 *    bug or a future plugin ever lets something through.
 */

export const MARKDOWN_TAGS: string[] = [...ANSWER_TAGS];
const ALLOWED_ATTR = ["href", "title", "src", "alt", "start"];
/** Web, mail and phone addresses, and relative ones; no other scheme. */
const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto|tel):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

export interface MarkdownOptions {
  /**
   * A line break in the text is a line break on the page. Chat messages are written line by line (an answer puts a
   * heading, each list item and each table row on a line of its own); articles follow Markdown, where it is a space.
   */
  breaks?: boolean;
}

/** A function from Markdown to sanitized HTML, for one window (the page's, or a jsdom one on the server). */
export function markdownRenderer(window: WindowLike, options: MarkdownOptions = {}): (source: string) => string {
  const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: options.breaks ?? false });
  // Our own instance, so its hook never affects another use of DOMPurify.
  const purifier = DOMPurify(window);
  purifier.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName !== "A") return;
    const href = node.getAttribute("href") ?? "";
    // Links to other sites open in a new tab, without handing them this page (window.opener) or our address.
    if (/^https?:/i.test(href)) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    }
  });
  return (source) =>
    purifier.sanitize(markdown.render(source), {
      ALLOWED_TAGS: MARKDOWN_TAGS,
      ALLOWED_ATTR,
      ALLOWED_URI_REGEXP,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: false,
    });
}
