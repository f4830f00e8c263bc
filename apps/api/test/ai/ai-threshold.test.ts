import type { ThresholdProposal } from "@cove/contract/ai.ts";
import { describe, expect, it } from "vitest";
import { aiAnswers, aiQuestionSuggestions } from "../../src/db/schema/ai.ts";
import {
  ceilingThreshold,
  floorThreshold,
  handedOffAt,
  type Labelled,
  proposeThreshold,
  targetThreshold,
} from "../../src/modules/ai/threshold.ts";
import { addMember, client, createArticle, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();
const call = client(() => t.app);
type Org = Awaited<ReturnType<typeof registerOrg>>;

/** 20 questions an article covered, and 7 none did, with the confidence the assistant gave each. */
const ANSWERABLE = [
  0.3, 0.35, 0.4, 0.45, 0.52, 0.55, 0.58, 0.6, 0.62, 0.65, 0.68, 0.7, 0.72, 0.75, 0.78, 0.8, 0.82, 0.85, 0.88, 0.9,
];
const UNCOVERED = [0.1, 0.2, 0.25, 0.38, 0.45, 0.5, 0.6];
const FIXTURE: Labelled[] = [
  ...ANSWERABLE.map((confidence) => ({ confidence, answerable: true })),
  ...UNCOVERED.map((confidence) => ({ confidence, answerable: false })),
];
/**
 * 20 questions no article covered, half of them at 0.40 or above: the 17th smallest (85% of 20) is 0.56. Each label as
 * the assistant at 0.5 would have logged it: handed off below 0.5 (16 answerable ones answered, fewer than 20).
 */
const UNCOVERED_MANY = [
  0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.32, 0.34, 0.36, 0.38, 0.42, 0.44, 0.46, 0.48, 0.5, 0.53, 0.56, 0.61, 0.7, 0.95,
];
const FLOOR_FIXTURE: Labelled[] = [
  ...ANSWERABLE.map((confidence) => ({ confidence, answerable: true, handedOff: confidence < 0.5 })),
  ...UNCOVERED_MANY.map((confidence) => ({ confidence, answerable: false, handedOff: confidence < 0.5 })),
];

/** FLOOR_FIXTURE with 4 more answerable questions the assistant answered: 20 it answered itself, 24 answerable. */
const ANSWERED_MORE = [0.92, 0.94, 0.96, 0.98];
const CEILING_FIXTURE: Labelled[] = [
  ...FLOOR_FIXTURE,
  ...ANSWERED_MORE.map((confidence) => ({ confidence, answerable: true, handedOff: false })),
];

describe("the proposed threshold", () => {
  it("matches the hand computation on a fixture history", () => {
    // Target 10% of 20: 2 may fall below; the 3rd smallest is 0.40. Below it: 0.30, 0.35 (2/20) and of the uncovered
    // 0.10, 0.20, 0.25, 0.38 (4/7).
    expect(proposeThreshold(FIXTURE, 0.1)).toBe(0.4);
    expect(handedOffAt(FIXTURE, 0.4)).toEqual({ threshold: 0.4, answerable: 2 / 20, uncovered: 4 / 7, wrong: null });
    // Target 20%: 4 may fall below; the 5th smallest is 0.52; uncovered below it: 6/7.
    expect(proposeThreshold(FIXTURE, 0.2)).toBe(0.52);
    expect(handedOffAt(FIXTURE, 0.52)).toEqual({ threshold: 0.52, answerable: 4 / 20, uncovered: 6 / 7, wrong: null });
    // 5%: 1 may fall below: the 2nd smallest, 0.35.
    expect(proposeThreshold(FIXTURE, 0.05)).toBe(0.35);
  });

  it("counts answers a person marked wrong apart: handing them off is right, and they do not move the proposal", () => {
    // Three wrong answers given at 0.45, 0.55 and 0.7: at 0.4 none is handed off, at 0.52 one, at 0.6 two of three.
    const wrong = [0.45, 0.55, 0.7].map((confidence) => ({ confidence, answerable: false, wrong: true }));
    const history = [...FIXTURE, ...wrong];
    expect(proposeThreshold(history, 0.1)).toBe(0.4);
    expect(handedOffAt(history, 0.4)).toEqual({ threshold: 0.4, answerable: 2 / 20, uncovered: 4 / 7, wrong: 0 });
    expect(handedOffAt(history, 0.6)).toEqual({ threshold: 0.6, answerable: 7 / 20, uncovered: 6 / 7, wrong: 2 / 3 });
  });

  it("hands off at least 85% of the uncovered questions once 14 are labelled, above the target's threshold if need be", () => {
    // Target 10%: the 3rd smallest answerable confidence, 0.40, hands off 10 of the 20 uncovered (50%). 85% of 20 is 17:
    // the threshold must be above the 17th smallest, 0.56, so the lowest hundredth that does is 0.57, where 6 of 20
    // answerable (0.30 to 0.55: 30%) and 17 of 20 uncovered (85%) are handed off.
    expect(targetThreshold(FLOOR_FIXTURE, 0.1)).toBe(0.4);
    expect(handedOffAt(FLOOR_FIXTURE, 0.4).uncovered).toBe(10 / 20);
    expect(floorThreshold(FLOOR_FIXTURE)).toBe(0.57);
    expect(handedOffAt(FLOOR_FIXTURE, 0.56).uncovered).toBe(16 / 20);
    expect(proposeThreshold(FLOOR_FIXTURE, 0.1)).toBe(0.57);
    expect(handedOffAt(FLOOR_FIXTURE, 0.57)).toEqual({
      threshold: 0.57,
      answerable: 6 / 20,
      uncovered: 17 / 20,
      wrong: null,
    });
    // Target 30%: 6 may fall below; the 7th smallest, 0.58, already hands off 17 of 20: the floor does not move it.
    expect(proposeThreshold(FLOOR_FIXTURE, 0.3)).toBe(0.58);
    // Answers marked wrong are not uncovered questions: they neither count toward the 20 nor move the floor.
    const wrong = [0.9, 0.95].map((confidence) => ({ confidence, answerable: false, wrong: true }));
    expect(floorThreshold([...FLOOR_FIXTURE, ...wrong])).toBe(0.57);
    // With the first 14 uncovered labels (0.05 to 0.48), 12 must be below (85% of 14 is 11.9): above the 12th smallest,
    // 0.44, so 0.45. With 13 the floor is not applied (10 of 13 at 0.40); with 19 answerable, nothing is proposed.
    expect(floorThreshold(FLOOR_FIXTURE.slice(0, -6))).toBe(0.45);
    expect(proposeThreshold(FLOOR_FIXTURE.slice(0, -6), 0.1)).toBe(0.45);
    expect(floorThreshold(FLOOR_FIXTURE.slice(0, -7))).toBeNull();
    expect(proposeThreshold(FLOOR_FIXTURE.slice(0, -7), 0.1)).toBe(0.4);
    expect(proposeThreshold(FLOOR_FIXTURE.slice(1), 0.1)).toBeNull();
  });

  it("raises the threshold toward the floor no higher than the target allows on the questions the assistant answered", () => {
    // The floor reads the uncovered questions only: 0.57, as in FLOOR_FIXTURE.
    expect(floorThreshold(CEILING_FIXTURE)).toBe(0.57);
    // Target 10%: of all 24 answerable, 2 may fall below (floor(2.4)): the 3rd smallest, 0.40. Of the 20 the assistant
    // answered (0.52 to 0.98), 2 may fall below: the 3rd smallest, 0.58, above the floor: the floor's 0.57 stands.
    expect(targetThreshold(CEILING_FIXTURE, 0.1)).toBe(0.4);
    expect(ceilingThreshold(CEILING_FIXTURE, 0.1)).toBe(0.58);
    expect(proposeThreshold(CEILING_FIXTURE, 0.1)).toBe(0.57);
    // Target 5%: 1 of 24 (the 2nd smallest, 0.35) and 1 of the 20 answered (the 2nd smallest, 0.55): the ceiling, 0.55,
    // is below the floor, so the proposal stops there. At 0.55: 4 handed off and 0.52 of the answerable (5 of 24), 1 of
    // the 20 answered (5%), 16 of 20 uncovered (0.05 to 0.53: 80%); the floor's 0.57 would hand off 2 of the 20 answered.
    expect(targetThreshold(CEILING_FIXTURE, 0.05)).toBe(0.35);
    expect(ceilingThreshold(CEILING_FIXTURE, 0.05)).toBe(0.55);
    expect(proposeThreshold(CEILING_FIXTURE, 0.05)).toBe(0.55);
    expect(handedOffAt(CEILING_FIXTURE, 0.55)).toEqual({
      threshold: 0.55,
      answerable: 5 / 24,
      uncovered: 16 / 20,
      wrong: null,
    });
    const answered = CEILING_FIXTURE.filter((l) => l.answerable && !l.handedOff);
    expect(handedOffAt(answered, 0.55).answerable).toBe(1 / 20);
    expect(handedOffAt(answered, 0.57).answerable).toBe(2 / 20);
    // Without the 4 more (FLOOR_FIXTURE), 16 answered questions are fewer than 20: no ceiling, the floor's 0.57 stands.
    expect(ceilingThreshold(FLOOR_FIXTURE, 0.05)).toBeNull();
    expect(proposeThreshold(FLOOR_FIXTURE, 0.05)).toBe(0.57);
    // A label not flagged as handed off counts as answered: with none flagged, all 20 answerable ones are, the ceiling
    // is the target's own threshold, and the floor cannot raise the proposal (0.40, not 0.57).
    const unflagged = FLOOR_FIXTURE.map(({ handedOff: _, ...l }) => l);
    expect(ceilingThreshold(unflagged, 0.1)).toBe(0.4);
    expect(proposeThreshold(unflagged, 0.1)).toBe(0.4);
  });

  it("keeps the default with fewer than 20 answerable questions", () => {
    expect(proposeThreshold(FIXTURE.slice(1), 0.1)).toBeNull();
  });
});

async function seedHistory(org: Org, uncovered = UNCOVERED, answeredMore: number[] = []) {
  const orgId = org.user.organizationId;
  const article = await createArticle(t.app, org, { title: "Returns", body: "Send it back.", status: "published" });
  const row = (question: string, confidence: number, extra: Partial<typeof aiAnswers.$inferInsert> = {}) => ({
    organizationId: orgId,
    channel: "chat" as const,
    question,
    confidence,
    handoff: confidence < 0.5,
    provider: "embedded",
    latencyMs: 5,
    ...extra,
  });
  // Answerable three ways: a thumbs up, attached to an article, accepted as an example question.
  const labelled = ANSWERABLE.map((c, k) =>
    k % 3 === 0
      ? row(`thumbs ${k}`, c, { feedback: "up" })
      : k % 3 === 1
        ? row(`attached ${k}`, c, { reviewedAt: new Date(), reviewedArticleId: article.id })
        : row(`Learned question ${k}?`, c),
  );
  await t.database.db.insert(aiAnswers).values([
    ...labelled,
    ...answeredMore.map((c, k) => row(`thumbs more ${k}`, c, { feedback: "up" })),
    ...uncovered.map((c, k) => row(`uncovered ${k}`, c, { notCovered: true, reviewedAt: new Date() })),
    // Not labels: a thumbs down alone, the staff's console, an unlabelled question.
    row("thumbs down", 0.2, { feedback: "down" }),
    row("console", 0.1, { channel: "console", feedback: "up" }),
    row("nobody said", 0.15),
  ]);
  await t.database.db.insert(aiQuestionSuggestions).values(
    ANSWERABLE.flatMap((_, k) =>
      k % 3 === 2
        ? [
            {
              organizationId: orgId,
              articleId: article.id,
              question: `learned question ${k}`,
              source: "chat" as const,
              sourceId: article.id,
              state: "accepted" as const,
            },
          ]
        : [],
    ),
  );
}

describe("GET /api/ai/threshold and POST /api/ai/threshold/apply", () => {
  it("proposes from the organization's own labelled questions, shows the trade-off, and applies it for an admin", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    await seedHistory(org);
    const res = await call(org, "GET", "/api/ai/threshold?target=0.1");
    expect(res.statusCode, res.body).toBe(200);
    const proposal = res.json<ThresholdProposal>();
    expect(proposal).toMatchObject({
      target: 0.1,
      current: 0.5,
      labelled: { answerable: 20, uncovered: 7, wrong: 0 },
      proposed: 0.4,
      at_proposed: { threshold: 0.4, answerable_handed_off: 0.1, uncovered_handed_off: 4 / 7, wrong_handed_off: null },
      message: "At 0.40: 10% of answerable questions handed off, 57% of uncovered ones handed off.",
    });
    expect(proposal.curve.find((p) => p.threshold === 0.5)).toEqual({
      threshold: 0.5,
      answerable_handed_off: 4 / 20,
      uncovered_handed_off: 5 / 7,
      wrong_handed_off: null,
    });

    // Another organization sees its own (empty) history, and nothing of this one's.
    const theirs = (await call(other, "GET", "/api/ai/threshold")).json<ThresholdProposal>();
    expect(theirs).toMatchObject({ labelled: { answerable: 0, uncovered: 0, wrong: 0 }, proposed: null, current: 0.5 });
    expect(theirs.message).toBe(
      "None of your customers' questions is labelled as answerable yet; with fewer than 20 the assistant keeps the default threshold (0.5) or the one you set.",
    );
    expect((await call(other, "POST", "/api/ai/threshold/apply", { target: 0.1 })).statusCode).toBe(400);

    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    expect((await call(agent, "GET", "/api/ai/threshold")).statusCode).toBe(200);
    expect((await call(agent, "POST", "/api/ai/threshold/apply", { target: 0.2 })).statusCode).toBe(403);
    const applied = await call(org, "POST", "/api/ai/threshold/apply", { target: 0.2 });
    expect(applied.statusCode, applied.body).toBe(200);
    const after = applied.json<ThresholdProposal>();
    expect(after).toMatchObject({ proposed: 0.52, target: 0.2 });
    // Stored as a PostgreSQL real.
    expect(after.current).toBeCloseTo(0.52, 5);
    const settings = (await call(org, "GET", "/api/ai/settings")).json().settings;
    expect(settings.handoff_threshold).toBeCloseTo(0.52, 5);
    expect((await call(other, "GET", "/api/ai/settings")).json().settings.handoff_threshold).toBe(0.5);
  });

  it("says when no threshold meets both the target and the 85% floor, and applies the floor's", async () => {
    const org = await registerOrg(t.app);
    await seedHistory(org, UNCOVERED_MANY);
    const proposal = (await call(org, "GET", "/api/ai/threshold?target=0.1")).json<ThresholdProposal>();
    expect(proposal).toMatchObject({
      labelled: { answerable: 20, uncovered: 20, wrong: 0 },
      proposed: 0.57,
      at_proposed: { threshold: 0.57, answerable_handed_off: 6 / 20, uncovered_handed_off: 17 / 20 },
    });
    expect(proposal.message).toBe(
      "At 0.57: 30% of answerable questions handed off, 85% of uncovered ones handed off. No threshold hands off at most 10% of answerable questions and at least 85% of uncovered ones: this is the lowest that hands off at least 85% of them.",
    );
    // At 30% the target's own threshold (0.58) already meets the floor: the sentence is the usual one.
    const at30 = (await call(org, "GET", "/api/ai/threshold?target=0.3")).json<ThresholdProposal>();
    expect(at30.message).toBe("At 0.58: 30% of answerable questions handed off, 85% of uncovered ones handed off.");
    const applied = await call(org, "POST", "/api/ai/threshold/apply", { target: 0.1 });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json<ThresholdProposal>().current).toBeCloseTo(0.57, 5);
  });

  it("stops below the floor where it would hand off more than the target of the questions the assistant answered", async () => {
    const org = await registerOrg(t.app);
    await seedHistory(org, UNCOVERED_MANY, ANSWERED_MORE);
    // CEILING_FIXTURE at 5% (hand-computed in "raises the threshold toward the floor ..."): 0.55, not the floor's 0.57.
    const proposal = (await call(org, "GET", "/api/ai/threshold?target=0.05")).json<ThresholdProposal>();
    expect(proposal).toMatchObject({
      labelled: { answerable: 24, uncovered: 20, wrong: 0 },
      proposed: 0.55,
      at_proposed: { threshold: 0.55, answerable_handed_off: 5 / 24, uncovered_handed_off: 16 / 20 },
    });
    expect(proposal.message).toBe(
      "At 0.55: 21% of answerable questions handed off, 80% of uncovered ones handed off. No threshold hands off at most 5% of answerable questions and at least 85% of uncovered ones: 0.57 would hand off 85% of uncovered ones, but also 10% of the answerable questions the assistant answered itself; this one hands off 5% of those.",
    );
    // At 10% the ceiling (0.58) is above the floor: the floor's sentence, as without the ceiling.
    const at10 = (await call(org, "GET", "/api/ai/threshold?target=0.1")).json<ThresholdProposal>();
    expect(at10.proposed).toBe(0.57);
    expect(at10.message).toContain("this is the lowest that hands off at least 85% of them.");
  });

  it("refuses a target out of range or not a number, and an anonymous caller", async () => {
    const org = await registerOrg(t.app);
    for (const target of ["abc", "0", "0.9"]) {
      const res = await call(org, "GET", `/api/ai/threshold?target=${target}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toContain("The target must be a number between 0.01 and 0.5");
    }
    expect((await call(org, "POST", "/api/ai/threshold/apply", {})).statusCode).toBe(400);
    expect((await call(null, "GET", "/api/ai/threshold")).statusCode).toBe(401);
  });
});
