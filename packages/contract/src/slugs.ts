/**
 * The one way Cove turns a name into the part of an address that names it: organizations (`/help/{slug}`), articles
 * and categories. Letters and digits of every script are kept, lower-cased, so a title in Greek, Russian, Hindi or
 * Japanese gets a slug a reader recognizes instead of a generic fallback; accents on Latin and Greek letters
 * are dropped ("Crème brûlée" -> "creme-brulee"), and everything else (spaces, punctuation, symbols, emoji, invisible
 * characters) becomes a single "-". A name with no letter or digit at all gets the fallback.
 */
export function slugify(text: string, opts: { fallback: string; max: number }): string {
  const words = text
    .normalize("NFKD")
    .toLowerCase()
    // Accents on the alphabets that write them as optional marks; in other scripts a mark is part of its letter
    // (Cyrillic й is not и with a breve, a Devanagari vowel sign is not decoration).
    .replace(/([\p{Script=Latin}\p{Script=Greek}])\p{M}+/gu, "$1")
    .normalize("NFC")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, "-")
    // A mark needs the letter before it.
    .replace(/(^|-)\p{M}+/gu, "$1")
    .replace(/^-+|-+$/g, "");
  // Cut at a whole character (a surrogate pair is one), then drop a trailing dash.
  const cut = Array.from(words).slice(0, opts.max).join("").replace(/-+$/, "");
  return cut || opts.fallback;
}

/** Whether text could be a slug slugify made (up to 100 characters): anything else names nothing. */
export const isSlugShaped = (text: string) => /^[\p{L}\p{N}][\p{L}\p{N}\p{M}-]{0,99}$/u.test(text);

/** Organization slugs a registration never gets: addresses of Cove's own pages and of the demo (docs/product.md, "The demo organization"). */
export const RESERVED_ORG_SLUGS: readonly string[] = [
  "about",
  "account",
  "admin",
  "ai-test",
  "api",
  "app",
  "assets",
  "billing",
  "blog",
  "cove",
  "customer-portal",
  "dashboard",
  "demo",
  "docs",
  "help",
  "knowledge-base",
  "login",
  "logout",
  "mail",
  "portal",
  "pricing",
  "privacy",
  "register",
  "reset-password",
  "security",
  "settings",
  "signup",
  "static",
  "status",
  "support",
  "system",
  "terms",
  "widget",
  "www",
];

export const isReservedOrgSlug = (slug: string) => RESERVED_ORG_SLUGS.includes(slug);
