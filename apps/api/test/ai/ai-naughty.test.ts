import type { AiResponseAnswer } from "@cove/contract/ai.ts";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiAnswers } from "../../src/db/schema/ai.ts";
import { bearer, createTestApp, naughtySample, registerOrg, type TestApp } from "../helpers.ts";
import { addArticle, SHOP_ARTICLES } from "../support/kb-fixtures.ts";

// A sample end to end; all 515 go through the contract in platform/naughty-schemas.test.ts.
const naughty = naughtySample();

let t: TestApp;
let org: Awaited<ReturnType<typeof registerOrg>>;
beforeAll(async () => {
  t = await createTestApp();
  org = await registerOrg(t.app);
  for (const a of SHOP_ARTICLES) await addArticle(t, org.user.organizationId, a);
});
afterAll(() => t.close());

/** What a text field keeps of s: surrounding whitespace trimmed (zod's trim), nothing else changed. */
const kept = (s: string) => s.trim();

describe("the assistant takes naughty strings as typed", () => {
  it("as a question, with earlier turns and a plan: an answer or a clear 400, logged unchanged", async () => {
    for (const s of naughty) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/chat/ai-response",
        headers: bearer(org.token),
        payload: {
          message: s,
          customerInfo: { plan: s.slice(0, 60) },
          conversation: [
            { role: "user", content: s },
            { role: "assistant", content: s },
          ],
        },
      });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 200) {
        const answer = res.json() as AiResponseAnswer;
        expect(answer.confidence, JSON.stringify(s)).toBeGreaterThanOrEqual(0);
        expect(answer.confidence, JSON.stringify(s)).toBeLessThanOrEqual(1);
        const [logged] = await t.database.db
          .select({ question: aiAnswers.question })
          .from(aiAnswers)
          .where(and(eq(aiAnswers.organizationId, org.user.organizationId)))
          .orderBy(desc(aiAnswers.createdAt))
          .limit(1);
        expect(logged?.question, JSON.stringify(s)).toBe(kept(s));
      } else {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        expect(kept(s) === "" || s.includes("\u0000"), JSON.stringify(s)).toBe(true);
        expect(res.json().error).toEqual(expect.any(String));
      }
    }
  });

  it("as the greeting: stored and read back unchanged, or a clear 400", async () => {
    for (const s of naughty) {
      const res = await t.app.inject({
        method: "PUT",
        url: "/api/ai/settings",
        headers: bearer(org.token),
        payload: { greeting: s },
      });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 200) {
        const read = await t.app.inject({ method: "GET", url: "/api/ai/settings", headers: bearer(org.token) });
        expect(read.json().settings.greeting, JSON.stringify(s)).toBe(kept(s));
      } else {
        expect(res.statusCode, JSON.stringify(s)).toBe(400);
        expect(kept(s) === "" || s.includes("\u0000"), JSON.stringify(s)).toBe(true);
      }
    }
  });
});
