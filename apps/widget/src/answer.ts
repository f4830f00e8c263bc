import { el } from "./dom.ts";
import type { AnswerNode, Source } from "./types.ts";

/** An address of an answer's link or picture, against Cove's origin (not the host page's); null unless web or mail. */
export function safeUrl(value: string, base: string): string | null {
  try {
    const url = new URL(value, base);
    return /^(https?|mailto|tel):$/.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** A source article under an answer, opened in a new tab; only a web address. */
export function sourceLink(s: Source, base: string): HTMLLIElement | null {
  const url = new URL(s.url, base);
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const item = el("li");
  const link = el("a", undefined, s.title);
  link.href = url.href;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  item.append(link);
  return item;
}

const RICH_TAGS = /^(p|br|hr|h[1-6]|strong|em|s|code|pre|blockquote|ul|ol|li|a|img|table|thead|tbody|tr|th|td)$/;

/**
 * An answer, built from the nodes the server made of its sanitized HTML (createElement and text nodes only: nothing is
 * parsed here), through our own allow-list again: the elements Markdown makes, with their text, web addresses and
 * nothing else. A node of any other kind is left out.
 */
export function rich(nodes: AnswerNode[], base: string): HTMLElement {
  const box = el("div", "rich");
  const made: Node[] = [];
  for (const node of nodes) {
    // Only an element built earlier can hold a node; anything else goes to the answer itself.
    const at = node.parent >= 0 ? made[node.parent] : undefined;
    const parent = at instanceof Element ? at : box;
    const built = node.tag === "#text" ? document.createTextNode(node.text ?? "") : element(node, base);
    made.push(built);
    parent.appendChild(built);
  }
  return box;
}

function element(node: AnswerNode, base: string): Node {
  if (!RICH_TAGS.test(node.tag)) return document.createTextNode("");
  const element = document.createElement(node.tag);
  const href = node.href ? safeUrl(node.href, base) : null;
  const src = node.src ? safeUrl(node.src, base) : null;
  if (href) element.setAttribute("href", href);
  if (src) element.setAttribute("src", src);
  if (node.alt) element.setAttribute("alt", node.alt);
  if (node.title) element.setAttribute("title", node.title);
  if (typeof node.start === "number") element.setAttribute("start", String(node.start));
  if (element instanceof HTMLAnchorElement) {
    element.target = "_blank";
    element.rel = "noopener noreferrer nofollow";
  }
  return element;
}
