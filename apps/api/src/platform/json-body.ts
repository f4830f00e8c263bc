import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

/**
 * How deep a request body's lists and objects may nest. The API's bodies nest three levels at most (a conversation's
 * turns); anything far deeper is not a request a person's browser sends, and walking it (to check for NUL characters,
 * to validate it) must never cost a stack per level.
 */
export const MAX_JSON_DEPTH = 32;

/** True when JSON text nests lists and objects deeper than limit. One pass; brackets inside strings do not count. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote among them
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** A UTF-16 surrogate that is not half of a pair (with the u flag, a pair is one code point and never matches). */
const LONE_SURROGATE = /\p{Cs}/gu;

/** text with every lone surrogate replaced by U+FFFD, as a UTF-8 decoder does with a broken byte sequence. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * The text a request carries, checked once at the edge: the strings and keys of a parsed value (a JSON body, the
 * query, the path's parameters), walked with a list, not recursion. A NUL character is refused (`nul`); a lone
 * surrogate (JSON's "\ud800" escape, a string cut inside an emoji) is replaced by U+FFFD in place, so that no
 * handler, database column or JSON encoder downstream ever sees one. Answers the value to keep (a bare string is new).
 */
export function cleanText(value: unknown): { value: unknown; nul: boolean } {
  if (typeof value === "string") {
    return value.includes("\u0000") ? { value, nul: true } : { value: wellFormed(value), nul: false };
  }
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (Buffer.isBuffer(next)) {
      // A raw body (the payment provider's webhook) is bytes checked by its signature, not text.
    } else if (Array.isArray(next)) {
      for (let i = 0; i < next.length; i++) {
        const item = next[i];
        if (typeof item === "string") {
          if (item.includes("\u0000")) return { value, nul: true };
          next[i] = wellFormed(item);
        } else pending.push(item);
      }
    } else if (next && typeof next === "object") {
      const record = next as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (key.includes("\u0000")) return { value, nul: true };
        const item = record[key];
        if (typeof item === "string") {
          if (item.includes("\u0000")) return { value, nul: true };
          record[key] = wellFormed(item);
        } else pending.push(item);
        const fixed = wellFormed(key);
        if (fixed !== key) {
          // Later keys of the same object keep their order; two keys made equal keep the last value, as JSON does.
          record[fixed] = record[key];
          delete record[key];
        }
      }
    }
  }
  return { value, nul: false };
}

/**
 * JSON bodies: Fastify's own parser (prototype poisoning refused), after a check of the nesting depth, so that a body
 * of thousands of nested lists answers a clear 400 instead of exhausting the stack of whatever walks it next.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(
        new AppError(
          "BAD_REQUEST",
          `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of lists and objects.`,
        ),
        undefined,
      );
      return;
    }
    parse(req, body as string, done);
  });
}
