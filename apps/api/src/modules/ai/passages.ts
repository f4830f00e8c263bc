/**
 * Splits a Markdown article into passages an answer can quote: paragraphs and lists, each with the heading it sits
 * under. The assistant finds the passage that matches the question by its plain text, and quotes its Markdown, so a
 * list, a table, bold text and links read in the chat as they do in the help center.
 */
export interface Passage {
  heading: string;
  /** What retrieval reads: the passage without Markdown syntax (a table's cells comma-separated). */
  text: string;
  /** What an answer quotes: the passage's own Markdown, pictures as their alt text, soft line breaks joined. */
  markdown: string;
}

/** Markdown as an answer quotes it: pictures become their description (a chat answer shows no images). */
function quotable(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[ \t]+$/gm, "")
    .trim();
}

/** A Markdown table row as plain text: its cells, comma-separated; the |---| separator row disappears. */
const TABLE_SEPARATOR = /^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*\|?\s*$/;

function tableRows(markdown: string): string {
  return markdown
    .split("\n")
    .filter((line) => !TABLE_SEPARATOR.test(line))
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
const TABLE_ROW = /^\s*\|.*\|\s*$/;

export function splitPassages(markdown: string): Passage[] {
  const passages: Passage[] = [];
  let heading = "";
  let block: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = plainText(block.filter((line) => !FENCE.test(line)).join("\n"));
    if (text) passages.push({ heading, text, markdown: quotable(block.join("\n")) });
    block = [];
  };
  let afterBlank = false;
  for (const line of markdown.replaceAll("\r\n", "\n").split("\n")) {
    if (FENCE.test(line)) {
      // The fence stays in the Markdown (so code is quoted as code), not in the plain text.
      inFence = !inFence;
      block.push(line);
      afterBlank = false;
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
    const row = TABLE_ROW.test(line);
    const continuesList = LIST_ITEM.test(last) || /^\s{2,}/.test(last);
    const introduced = (item || row) && /:\s*$/.test(last);
    // A blank line ends a paragraph, but not a list whose items are spaced apart, nor the lead-in of a list.
    if (afterBlank && !(continuesList && (item || /^\s{2,}/.test(line))) && !introduced) flush();
    // A list starts a new passage unless a lead-in sentence ending with ":" introduces it.
    else if (item && block.length > 0 && !continuesList && !introduced) flush();
    // So does a table, unless it continues one or a lead-in introduces it.
    else if (row && block.length > 0 && !TABLE_ROW.test(last) && !introduced) flush();
    // A soft line break inside a paragraph is a space: only list items and table rows are lines of their own.
    if (block.length > 0 && !item && !row && !/^\s{2,}/.test(line) && !TABLE_ROW.test(last) && !FENCE.test(last))
      block[block.length - 1] = `${last} ${line.trim()}`;
    else block.push(line);
    afterBlank = false;
  }
  flush();
  return passages;
}

/** A word before a full stop that does not end a sentence: "a.m.", "e.g.", "No. 5", a list number "4.". */
const NOT_A_SENTENCE_END = /(?:^|\s)(?:\d+|[\p{L}]\.(?:[\p{L}]\.)*|e\.g|i\.e|etc|vs|no|mr|mrs|ms|dr|st)\.$/iu;

/** The sentences of one line of text, split only where a sentence really ends. */
export function lineSentences(line: string): string[] {
  const out: string[] = [];
  let start = 0;
  const end = /[.!?]["”)]?\s+(?=[\p{Lu}\p{N}"“(])/gu;
  for (let m = end.exec(line); m; m = end.exec(line)) {
    const upTo = m.index + m[0].trimEnd().length;
    if (NOT_A_SENTENCE_END.test(line.slice(start, upTo))) continue;
    out.push(line.slice(start, upTo).trim());
    start = m.index + m[0].length;
  }
  const rest = line.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** Whether a passage is a list or a table introduced by a lead-in sentence or a header row. */
export function introduced(passage: Passage): boolean {
  const [first, next] = passage.markdown.split("\n");
  return next !== undefined && first !== undefined && !LIST_ITEM.test(first) && !FENCE.test(first);
}

/** A passage's Markdown as lines: a table's |---| line stays with its header. */
function markdownLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    if (TABLE_SEPARATOR.test(line) && lines.length > 0) lines[lines.length - 1] += `\n${line}`;
    else lines.push(line);
  }
  return lines;
}

/** The first units that fit in `max` characters joined by one character each; the first one always. */
function leading(units: string[], max: number): string[] {
  const kept: string[] = [];
  let length = 0;
  for (const unit of units) {
    if (kept.length > 0 && length + 1 + unit.length > max) break;
    kept.push(unit);
    length += (kept.length > 1 ? 1 : 0) + unit.length;
  }
  return kept;
}

/**
 * At most about `max` characters of a passage (its Markdown), trimmed only at a boundary: whole lines (a list's
 * items, a table's rows, each with the lead or header line kept, a table's header with its |---| line), and within a
 * paragraph whole sentences. Never mid-sentence, never after a list number. A passage whose first unit alone is
 * longer than `max` keeps that unit whole. When lines are left out, the text says so in a paragraph of its own, so it
 * never reads as if the list ended there.
 */
export function excerpt(text: string, max = 700): string {
  if (text.length <= max) return text;
  const lines = markdownLines(text);
  if (lines.length > 1) {
    const kept = leading(lines, max);
    // A lead ("To start a return:") or a table header is never left without the first item or row after it.
    if (kept.length === 1 && lines[1] !== undefined) kept.push(lines[1]);
    // Nor a table's header without its first row.
    const next = lines[kept.length];
    if (next !== undefined && TABLE_SEPARATOR.test(kept[kept.length - 1]?.split("\n").pop() ?? "")) kept.push(next);
    if (kept.length === 1) return excerpt(kept[0] ?? "", max);
    return kept.length < lines.length ? `${kept.join("\n")}\n\n…` : kept.join("\n");
  }
  const sentences = lineSentences(text);
  const kept = leading(sentences, max);
  return kept.length < sentences.length ? `${kept.join(" ")} …` : kept.join(" ");
}

/** Whether a piece of Markdown (a line, a sentence) is part of `focus`, a sentence as `splitSentences` read it. */
function within(markdown: string, focus: string): boolean {
  const pieces = lineSentences(plainText(markdown.replace(LIST_ITEM, "")));
  return pieces.some((piece) => piece.length > 0 && (focus.includes(piece) || piece.includes(focus)));
}

/** Grows [from, to] one unit at a time, the next one first, then the one before, while the total fits `max`. */
function grow(lengths: number[], from: number, to: number, start: number, fixed: number, max: number) {
  let [a, b] = [from, to];
  let length = fixed + lengths.slice(a, b + 1).reduce((sum, n) => sum + n + 1, 0);
  for (let added = true; added; ) {
    added = false;
    for (const next of [b + 1, a - 1]) {
      const n = lengths[next];
      if (n === undefined || next < start || length + n + 1 > max) continue;
      length += n + 1;
      if (next > b) b = next;
      else a = next;
      added = true;
    }
  }
  return [a, b] as const;
}

/**
 * At most about `max` characters of a passage (its Markdown) around `focus`, the sentence (list item, table row)
 * retrieval matched, so that a long passage is quoted where it answers rather than from its start: in a list or a
 * table, the lead-in and header are kept with the matched item or row and the ones beside it; in a paragraph, the
 * sentences around the matched one. Trimmed at the same boundaries as `excerpt`, with "…" where something is left
 * out; `excerpt`'s cut from the start when the focus is not found, or is the passage's lead-in.
 */
export function excerptAround(text: string, focus: string, max = 700): string {
  // A passage with a code block is trimmed from its start, as before.
  if (text.length <= max || !focus || /^\s{0,3}(```|~~~)/m.test(text)) return excerpt(text, max);
  const lines = markdownLines(text);
  if (lines.length > 1) {
    // The lines that introduce the items or rows: a lead-in sentence, a table's header.
    let head = 0;
    if (!LIST_ITEM.test(lines[0] ?? "") && !(lines[0] ?? "").includes("\n") && !/^\s{2,}/.test(lines[0] ?? "")) head++;
    if ((lines[head] ?? "").includes("\n")) head++;
    const first = lines.findIndex((line, i) => i >= head && within(line, focus));
    if (first < 0) return excerpt(text, max);
    let last = first;
    while (last + 1 < lines.length && within(lines[last + 1] ?? "", focus)) last++;
    const lead = lines.slice(0, head);
    const fixed = lead.reduce((sum, line) => sum + line.length + 1, 0);
    const [a, b] = grow(
      lines.map((line) => line.length),
      first,
      last,
      head,
      fixed,
      max,
    );
    const kept = [...lead, ...lines.slice(a, b + 1)].join("\n");
    return a > head || b < lines.length - 1 ? `${kept}\n\n…` : kept;
  }
  const sentences = lineSentences(text);
  const first = sentences.findIndex((sentence) => within(sentence, focus));
  if (first < 0) return excerpt(text, max);
  let last = first;
  while (last + 1 < sentences.length && within(sentences[last + 1] ?? "", focus)) last++;
  const [a, b] = grow(
    sentences.map((s) => s.length),
    first,
    last,
    0,
    0,
    max,
  );
  return `${a > 0 ? "… " : ""}${sentences.slice(a, b + 1).join(" ")}${b < sentences.length - 1 ? " …" : ""}`;
}

/** A sentence of fewer words than this ("To start a return:") is read together with the one after it. */
const SHORT_SENTENCE_WORDS = 6;

/** Sentences (and list items) of a plain-text passage; very short ones joined to the next. */
export function splitSentences(text: string): string[] {
  const pieces = text
    .split(/\n+/)
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ""))
    .flatMap(lineSentences)
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
