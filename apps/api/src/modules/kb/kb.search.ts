import { and, type SQL, sql } from "drizzle-orm";
import { kbArticles } from "../../db/schema/kb.ts";
import type { Queryable } from "../../platform/db.ts";

export interface ArticleSearch {
  /** Articles holding every word. */
  all: SQL;
  /** Articles holding any of the words. */
  any: SQL;
  /** Articles holding all the words first, then the best weighted matches (title and phrasings over body). */
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
  const all = sql`${kbArticles.searchVector} @@ to_tsquery('english'::regconfig, ${terms.join(" & ")})`;
  const anyQuery = sql`to_tsquery('english'::regconfig, ${terms.join(" | ")})`;
  return {
    all,
    any: sql`${kbArticles.searchVector} @@ ${anyQuery}`,
    rank: sql`(case when ${all} then 1 else 0 end) + ts_rank(${kbArticles.searchVector}, ${anyQuery})`,
  };
}

/**
 * Which articles a search matches within scope: those holding every word when there are any, else those holding any
 * word. Customers type whole questions ("how do I return an item?") in which not every word is in the answer; an
 * AND-only search would find nothing there, and an OR-only one lists every article that says "item".
 */
export async function searchMatch(db: Queryable, scope: SQL | undefined, search: ArticleSearch): Promise<SQL> {
  const [hit] = await db.select({ id: kbArticles.id }).from(kbArticles).where(and(scope, search.all)).limit(1);
  return hit ? search.all : search.any;
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
