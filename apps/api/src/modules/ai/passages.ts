/**
 * Splits a Markdown article into passages an answer can quote: paragraphs and lists, each with the heading it sits
 * under, as plain text. The assistant answers with the passage that matches the question, not the whole article.
 */
export interface Passage {
  heading: string;
  text: string;
}

/** A Markdown table row as plain text: its cells, comma-separated; the |---| separator row disappears. */
function tableRows(markdown: string): string {
  return markdown
    .split("\n")
    .filter((line) => !/^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$/.test(line))
    .map((line) =>
      /^\s*\|.*\|\s*$/.test(line)
        ? line
            .trim()
            .slice(1, -1)
            .split("|")
            .map((cell) => cell.trim())
            .join(", ")
        : line,
    )
    .join("\n");
}

/** Markdown inline syntax to plain text. Links keep their address only when it is a full http(s) URL. */
export function plainText(markdown: string): string {
  return tableRows(markdown)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, "$1 ($2)")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]*>/g, "")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/^>\s?/gm, "")
    .replace(/[ \t]+/g, " ")
    .trim();
}

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

export function splitPassages(markdown: string): Passage[] {
  const passages: Passage[] = [];
  let heading = "";
  let block: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = plainText(block.join("\n"));
    if (text) passages.push({ heading, text });
    block = [];
  };
  let afterBlank = false;
  for (const line of markdown.replaceAll("\r\n", "\n").split("\n")) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      block.push(line);
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      flush();
      heading = plainText(h[1] ?? "");
      afterBlank = false;
      continue;
    }
    if (line.trim() === "") {
      afterBlank = true;
      continue;
    }
    const last = block[block.length - 1] ?? "";
    const item = LIST_ITEM.test(line);
    const continuesList = LIST_ITEM.test(last) || /^\s{2,}/.test(last);
    const introduced = item && /:\s*$/.test(last);
    // A blank line ends a paragraph, but not a list whose items are spaced apart, nor the lead-in of a list.
    if (afterBlank && !(continuesList && (item || /^\s{2,}/.test(line))) && !introduced) flush();
    // A list starts a new passage unless a lead-in sentence ending with ":" introduces it.
    else if (item && block.length > 0 && !continuesList && !introduced) flush();
    block.push(line);
    afterBlank = false;
  }
  flush();
  return passages;
}

/** At most `max` characters of a passage, cut after a whole sentence (or word) rather than mid-word. */
export function excerpt(text: string, max = 700): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const sentenceEnd = Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n"), head.lastIndexOf("\n"));
  if (sentenceEnd > max * 0.5) return head.slice(0, sentenceEnd + 1).trim();
  const wordEnd = head.lastIndexOf(" ");
  return `${head.slice(0, wordEnd > 0 ? wordEnd : max).trim()}…`;
}

/** A sentence of fewer words than this ("To start a return:") is read together with the one after it. */
const SHORT_SENTENCE_WORDS = 6;

/** Sentences (and list items) of a plain-text passage; very short ones joined to the next. */
export function splitSentences(text: string): string[] {
  const pieces = text
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ""))
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const sentences: string[] = [];
  let pending = "";
  for (const piece of pieces) {
    const joined = pending ? `${pending} ${piece}` : piece;
    if (joined.split(/\s+/).length < SHORT_SENTENCE_WORDS) pending = joined;
    else {
      sentences.push(joined);
      pending = "";
    }
  }
  if (pending) sentences.push(pending);
  return sentences;
}
