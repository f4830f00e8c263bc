import { type SQL, sql } from "drizzle-orm";
import { kbArticles } from "../../db/schema.ts";

export interface ArticleSearch {
  /** Matches an article holding any of the words, so a question typed in full still finds its answer. */
  where: SQL;
  /** Articles holding all the words come first, then the best weighted matches (title and phrasings over body). */
  rank: SQL;
}

/**
 * Turns what a person types into two PostgreSQL tsqueries over the article search vector: all words (ANDed) and any
 * word (ORed). The last word matches as a prefix, so results follow the typing. Only letters and digits are kept, so
 * no input can be a tsquery syntax error. Returns null when nothing searchable is left.
 */
export function articleSearch(search: string): ArticleSearch | null {
  const words = search
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, 16);
  if (words.length === 0) return null;
  const terms = words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`));
  const all = sql`to_tsquery('english'::regconfig, ${terms.join(" & ")})`;
  const any = sql`to_tsquery('english'::regconfig, ${terms.join(" | ")})`;
  return {
    where: sql`${kbArticles.searchVector} @@ ${any}`,
    rank: sql`(case when ${kbArticles.searchVector} @@ ${all} then 1 else 0 end) + ts_rank(${kbArticles.searchVector}, ${any})`,
  };
}

const EXCERPT_LENGTH = 180;

/** A short plain-text opening of a Markdown body, for search results: the Markdown punctuation goes, the words stay. */
export function excerptOf(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/[*_`~|]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  // Counted in code points, so an emoji is never cut in half.
  const chars = [...text];
  if (chars.length <= EXCERPT_LENGTH) return text;
  const cut = chars.slice(0, EXCERPT_LENGTH).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > cut.length / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}
