import { ANSWER_TAGS, type AnswerNode, type AnswerTag } from "@cove/contract/chat.ts";
import { Parser } from "htmlparser2";

const TAGS = new Set<string>(ANSWER_TAGS);
const isAnswerTag = (name: string): name is AnswerTag => TAGS.has(name);
/** Elements whose content is never text of the answer (the sanitizer removes them; this holds even if it did not). */
const DROPPED = new Set(["script", "style", "template", "noscript", "iframe", "object", "svg", "math", "textarea"]);
/** An address that may be a link or a picture: web, mail or phone, or relative to Cove (the help center's links). */
const SAFE_URL = /^(?:(?:https?|mailto|tel):|\/(?!\/)|#)/i;

/** Browsers drop tabs and line breaks inside an address ("/\t/evil" is "//evil"): an address with any is refused. */
const hasControl = (url: string) => [...url].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);

function safeUrl(value: string | undefined): string | undefined {
  const url = value?.trim();
  if (!url || !SAFE_URL.test(url) || hasControl(url)) return undefined;
  return url;
}

/**
 * An assistant's answer (sanitized HTML, as stored for the message) as a flat list of nodes for the chat widget
 * (answerNodeSchema): the allowed elements with their text, addresses and list start, and nothing else. An element
 * outside the list keeps only its text; the content of scripts, styles and the like is dropped.
 */
export function answerNodes(html: string): AnswerNode[] {
  const nodes: AnswerNode[] = [];
  /** Open elements: the node each became (null: not kept, its text goes to the nearest kept one), and dropped ones. */
  const open: { index: number | null; dropped: boolean }[] = [];
  const parentIndex = () => {
    for (let i = open.length - 1; i >= 0; i--) {
      const index = open[i]?.index;
      if (index !== null && index !== undefined) return index;
    }
    return -1;
  };
  const inDropped = () => open.some((o) => o.dropped);
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (inDropped() || DROPPED.has(name) || !isAnswerTag(name)) {
          open.push({ index: null, dropped: DROPPED.has(name) });
          return;
        }
        const node: AnswerNode = { parent: parentIndex(), tag: name };
        if (name === "a") {
          const href = safeUrl(attribs.href);
          if (href) node.href = href;
        }
        if (name === "img") {
          const src = safeUrl(attribs.src);
          if (!src) {
            // A picture from nowhere is no picture: its description stands in for it.
            if (attribs.alt) nodes.push({ parent: node.parent, tag: "#text", text: attribs.alt });
            open.push({ index: null, dropped: false });
            return;
          }
          node.src = src;
          if (attribs.alt) node.alt = attribs.alt;
        }
        if ((name === "a" || name === "img") && attribs.title) node.title = attribs.title;
        if (name === "ol" && attribs.start && /^\d{1,6}$/.test(attribs.start)) node.start = Number(attribs.start);
        nodes.push(node);
        open.push({ index: nodes.length - 1, dropped: false });
      },
      ontext(text) {
        if (inDropped() || text === "") return;
        const parent = parentIndex();
        const last = nodes.at(-1);
        // The parser may hand one text over in pieces: they stay one text node.
        if (last?.tag === "#text" && last.parent === parent) last.text = `${last.text ?? ""}${text}`;
        else nodes.push({ parent, tag: "#text", text });
      },
      onclosetag() {
        open.pop();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  return nodes;
}
