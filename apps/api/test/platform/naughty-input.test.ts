import type { AuthAnswer, MeAnswer } from "@cove/contract/auth.ts";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bearer,
  createTestApp,
  naughtySample,
  naughtyStrings,
  newAddress,
  registerOrg,
  registration,
  type TestApp,
  xssPayloads,
} from "../helpers.ts";

const naughty = naughtyStrings();
// End to end, a sample; every string goes through the contract in platform/naughty-schemas.test.ts.
const endToEnd = naughtySample();
const xssLines = xssPayloads();

/** Names are trimmed and 1 to 80 characters long, counted in code points (contract: requiredText("First name", 80)). */
const NAME_MAX = 80;
/** Company names: requiredText("Company name", 120). */
const ORG_NAME_MAX = 120;
const fits = (s: string, max: number) => [...s.trim()].length >= 1 && [...s.trim()].length <= max;
const fitsName = (s: string) => fits(s, NAME_MAX);

let t: TestApp;
let app: FastifyInstance;
/** Several signed-in users, so requests for different strings can be in flight at once (each user takes one at a time). */
let tokens: string[] = [];
/** Sign-in failures are counted per address: this file's own address keeps them away from other test files. */
const remoteAddress = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  tokens = await Promise.all([1, 2, 3, 4].map(async () => (await registerOrg(app)).token));
});

afterAll(async () => {
  await t?.close();
});

const show = (s: string) => JSON.stringify(s).slice(0, 60);

/** A 4xx must explain itself in words and a code. */
function humanError(res: LightMyRequestResponse): string | null {
  let body: { error?: unknown; code?: unknown };
  try {
    body = res.json() as { error?: unknown; code?: unknown };
  } catch {
    return `not JSON: ${res.body.slice(0, 200)}`;
  }
  if (typeof body.error !== "string" || body.error.trim().length < 5) return `no human message: ${res.body}`;
  if (typeof body.code !== "string") return `no code: ${res.body}`;
  return null;
}

/** Runs fn for every item, one item at a time per user, all users at once. */
async function eachAsUser<T>(items: readonly T[], fn: (item: T, index: number, token: string) => Promise<void>) {
  await Promise.all(
    tokens.map(async (token, lane) => {
      for (let i = lane; i < items.length; i += tokens.length) await fn(items[i] as T, i, token);
    }),
  );
}

async function updateProfile(token: string, payload: Record<string, string>) {
  return app.inject({ method: "PUT", url: "/api/auth/profile", headers: bearer(token), payload });
}

async function readMe(token: string) {
  return app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(token) });
}

describe("the Big List of Naughty Strings", () => {
  it("has the strings the corpus promises", () => {
    expect(naughty.length).toBe(515);
    expect(naughty.filter(fitsName).length).toBeGreaterThan(450);
  });

  it("the sample as first names: stored exactly as typed, or refused with a clear 400", async () => {
    const problems: string[] = [];
    let stored = 0;
    await eachAsUser(endToEnd, async (s, i, token) => {
      const res = await updateProfile(token, { firstName: s });
      const expected = fitsName(s) ? 200 : 400;
      if (res.statusCode !== expected) {
        problems.push(`#${i} ${show(s)}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
        return;
      }
      if (res.statusCode === 400) {
        const problem = humanError(res);
        if (problem) problems.push(`#${i} ${show(s)}: ${problem}`);
        else if (!/First name/.test((res.json() as { error: string }).error)) {
          problems.push(`#${i} ${show(s)}: message ${res.body}`);
        }
        return;
      }
      const answered = (res.json() as MeAnswer).user.firstName;
      const read = await readMe(token);
      const readName = read.statusCode === 200 ? (read.json() as MeAnswer).user.firstName : `(${read.statusCode})`;
      if (answered !== s.trim() || readName !== s.trim()) {
        problems.push(`#${i} ${show(s)}: answered ${show(answered)}, read back ${show(readName)}`);
      } else {
        stored++;
      }
    });
    expect(problems).toEqual([]);
    expect(stored).toBe(endToEnd.filter(fitsName).length);
  });

  it("the sample as sign-in emails: 400, 401 or 429, never 5xx", async () => {
    const problems: string[] = [];
    for (const [i, s] of endToEnd.entries()) {
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/login",
        remoteAddress,
        payload: { email: s, password: "correct horse battery" },
      });
      if (![400, 401, 429].includes(res.statusCode)) {
        problems.push(`#${i} ${show(s)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      const problem = humanError(res);
      if (problem) problems.push(`#${i} ${show(s)}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it("every tenth string as an organization name registers with a clean slug, or is refused with a 400", async () => {
    const sample = naughty.filter((_, i) => i % 10 === 0);
    const problems: string[] = [];
    let registered = 0;
    for (const s of sample) {
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: registration({ organizationName: s }),
        remoteAddress: newAddress(),
      });
      const expected = fits(s, ORG_NAME_MAX) ? 201 : 400;
      if (res.statusCode !== expected) {
        problems.push(`${show(s)}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
        continue;
      }
      if (res.statusCode === 400) {
        const problem = humanError(res);
        if (problem) problems.push(`${show(s)}: ${problem}`);
        continue;
      }
      const { user } = res.json() as AuthAnswer;
      if (user.organizationName !== s.trim()) problems.push(`${show(s)}: name became ${show(user.organizationName)}`);
      // Letters and digits of any script (with their marks) and dashes: nothing invisible, no punctuation.
      if (!/^[\p{L}\p{N}\p{M}-]+$/u.test(user.organizationSlug))
        problems.push(`${show(s)}: slug ${show(user.organizationSlug)}`);
      registered++;
    }
    expect(problems).toEqual([]);
    expect(registered).toBe(sample.filter((s) => fits(s, ORG_NAME_MAX)).length);
    expect(registered).toBeGreaterThan(40);
  });
});

describe("organization slugs", () => {
  it("stay clean when many organizations share one name", async () => {
    // The first takes the plain slug; later ones get a suffix, which must be as clean as the slug itself
    // (lowercase letters and digits in hyphen-separated words): it ends up in portal URLs.
    const id = Date.now().toString(36);
    const name = `Naughty Support ${id}`;
    const slugs: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await app.inject({
        method: "POST",
        url: "/api/auth/register",
        payload: registration({ organizationName: name }),
        remoteAddress: newAddress(),
      });
      expect(res.statusCode).toBe(201);
      slugs.push((res.json() as AuthAnswer).user.organizationSlug);
    }
    expect(new Set(slugs).size).toBe(30);
    expect(slugs[0]).toBe(`naughty-support-${id}`);
    expect(slugs.filter((slug) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug))).toEqual([]);
  });
});

describe("XSS payloads", () => {
  it("come back from the JSON API byte for byte, never escaped or altered", async () => {
    // Lines that fit a name as typed (no surrounding spaces to trim, at most 80 characters), spread over the whole list.
    const fitting = xssLines.filter((line) => line === line.trim() && line.length <= NAME_MAX);
    const step = Math.floor(fitting.length / 200);
    const sample = Array.from({ length: 200 }, (_, i) => fitting[i * step] ?? "");
    expect(new Set(sample).size).toBe(200);
    const problems: string[] = [];
    await eachAsUser(sample, async (line, _i, token) => {
      const res = await updateProfile(token, { lastName: line });
      if (res.statusCode !== 200) {
        problems.push(`${show(line)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        return;
      }
      const read = await readMe(token);
      if (read.statusCode !== 200) {
        problems.push(`${show(line)}: reading back answered ${read.statusCode}`);
        return;
      }
      const lastName = (read.json() as MeAnswer).user.lastName;
      const sameBytes = Buffer.from(lastName, "utf8").equals(Buffer.from(line, "utf8"));
      // The raw answer holds the text JSON-encoded only: no &lt; or other HTML entities.
      const rawHasIt = read.body.includes(JSON.stringify(line).slice(1, -1));
      if (!sameBytes || !rawHasIt) problems.push(`${show(line)}: read back ${show(lastName)}`);
    });
    expect(problems).toEqual([]);
  });
});
