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

/** True when any string or key in a parsed value holds a NUL character; walked with a list, not recursion. */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === "string") {
      if (next.includes("\u0000")) return true;
    } else if (Buffer.isBuffer(next)) {
      // A raw body (the payment provider's webhook) is bytes checked by its signature, not text.
    } else if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else if (next && typeof next === "object") {
      for (const [key, item] of Object.entries(next)) {
        if (key.includes("\u0000")) return true;
        pending.push(item);
      }
    }
  }
  return false;
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
