import type { AiResponseAnswer, SuggestionsReviewedAnswer } from "@cove/contract/ai.ts";
import { KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { aiQuestionSuggestions } from "../../src/db/schema/ai.ts";
import { chatMessages } from "../../src/db/schema/chat.ts";
import { NEAR_DUPLICATE, nearDuplicate } from "../../src/modules/ai/learning.ts";
import {
  addComment,
  addMember,
  client,
  createArticle,
  createTicket,
  errorAnswer,
  registerOrg,
  testAppForFile,
} from "../helpers.ts";
import { addArticle, demoOrganization } from "../support/kb-fixtures.ts";
import { articleLink, visitorAsks as askInChat, suggestionReads } from "../support/suggestions.ts";

const t = testAppForFile();

const call = client(() => t.app);
type Org = Awaited<ReturnType<typeof registerOrg>>;

const RETURNS = {
  title: "Sending something back",
  body: "Send the item back within 30 days in its box and we refund you within 5 days of receiving it.",
  status: "published",
};
const SHIPPING = {
  title: "How long does shipping take?",
  body: "Orders ship in 2 days. International orders take 7 to 10 days.",
  status: "published",
};
/** A customer's question in words no article uses. */
const ASKED = "the jumper is too small can i get my money";

const link = articleLink;
const { suggestions, questionsOf } = suggestionReads(() => t.app);

async function ask(org: Org, message: string): Promise<AiResponseAnswer> {
  const res = await call(org, "POST", "/api/chat/ai-response", { message });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function review(org: Parameters<typeof call>[0], ids: (string | undefined)[], action: "accept" | "dismiss") {
  return call(org, "POST", "/api/ai/suggestions/review", { ids, action });
}

/** A visitor asks in the chat; the assistant hands off; a person answers with a link to the article. */
async function handedOffChatAnsweredWith(org: Org, question: string, slug: string) {
  const { chat } = await askInChat(t.app, org, question, "Ada");
  const sent = await call(org, "POST", `/api/chat/sessions/${chat.session.id}/messages`, {
    message: `Sorry about that! Here is how: ${link(org, slug)}`,
  });
  expect(sent.statusCode, sent.body).toBe(201);
}

describe("near-duplicates", () => {
  it("are the same content words in any form or order, or at least NEAR_DUPLICATE of them shared", () => {
    expect(NEAR_DUPLICATE).toBe(0.75);
    expect(nearDuplicate("When will my parcel arrive in Canada?", "parcels arriving in canada when")).toBe(true);
    expect(nearDuplicate("Parcels to canada", "parcel to Canada?")).toBe(true);
    expect(nearDuplicate("When will my parcel arrive?", "when will my parcel ARRIVE")).toBe(true);
    expect(nearDuplicate("Do you ship to Iceland?", "Do you ship to Norway?")).toBe(false);
  });
});

describe("the assistant learns from the team's answers", () => {
  it("a handed-off question a person answered with an article becomes a candidate; accepted, it is answered from that article", async () => {
    const org = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    await createArticle(t.app, org, SHIPPING);
    const before = await ask(org, ASKED);
    expect(before.handoff).toBe(true);

    await handedOffChatAnsweredWith(org, ASKED, returns.slug);
    const [candidate, ...rest] = await suggestions(org);
    expect(rest).toEqual([]);
    expect(candidate).toMatchObject({
      question: ASKED,
      source: "chat",
      article: { id: returns.id, title: RETURNS.title, questions: 0 },
    });

    const accepted = await review(org, [candidate?.id], "accept");
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<SuggestionsReviewedAnswer>()).toEqual({
      accepted: 1,
      duplicates: 0,
      dismissed: 0,
      kept: [],
      message: "1 question added to their articles.",
    });
    expect(await questionsOf(org, returns.id)).toEqual([ASKED]);
    expect(await suggestions(org)).toEqual([]);

    // At once, in the same process: no restart, no rebuild asked for.
    const after = await ask(org, ASKED);
    expect(after.handoff).toBe(false);
    expect(after.sources[0]?.id).toBe(returns.id);
  });

  it("does not suggest a near-duplicate of a pending candidate or of an example question, and skips one at accepting", async () => {
    const org = await registerOrg(t.app);
    const shipping = await createArticle(t.app, org, SHIPPING);
    const first = await createTicket(t.app, org, { subject: "When will my parcel arrive in Canada?" });
    await addComment(t.app, org, first.id, { body: link(org, shipping.slug) });
    const again = await createTicket(t.app, org, { subject: "parcels arriving in canada when" });
    await addComment(t.app, org, again.id, { body: link(org, shipping.slug) });
    const [pending, ...rest] = await suggestions(org);
    expect(rest).toEqual([]);
    expect(pending?.question).toBe("When will my parcel arrive in Canada?");

    // Meanwhile someone added the same question in other words in the article's editor.
    const edited = await call(org, "PUT", `/api/kb/articles/${shipping.id}`, {
      questions: ["When does my parcel arrive in canada"],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const accepted = await call(org, "POST", `/api/ai/suggestions/${pending?.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().message).toBe(
      '"How long does shipping take?" already has a question like "When will my parcel arrive in Canada?": nothing was added.',
    );
    expect(await questionsOf(org, shipping.id)).toEqual(["When does my parcel arrive in canada"]);
    expect(await suggestions(org)).toEqual([]);
  });

  it("keeps a candidate pending when its article has the most example questions it can have, and says so", async () => {
    const org = await registerOrg(t.app);
    const full = Array.from({ length: KB_QUESTIONS_MAX }, (_, k) => `Question number ${k + 1} about shipping`);
    const shipping = await createArticle(t.app, org, { ...SHIPPING, questions: full });
    const ticket = await createTicket(t.app, org, { subject: "Do you ship to Iceland?" });
    await addComment(t.app, org, ticket.id, { body: link(org, shipping.slug) });
    const [candidate] = await suggestions(org);
    expect(candidate?.article.questions).toBe(KB_QUESTIONS_MAX);

    const reason = `"How long does shipping take?" already has ${KB_QUESTIONS_MAX} example questions, the most an article can have: remove one in the article's editor, or dismiss this suggestion`;
    const bulk = await review(org, [candidate?.id], "accept");
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(bulk.json<SuggestionsReviewedAnswer>()).toMatchObject({
      accepted: 0,
      kept: [{ id: candidate?.id, question: "Do you ship to Iceland?", reason }],
    });
    const one = await call(org, "POST", `/api/ai/suggestions/${candidate?.id}/accept`);
    expect(one.statusCode).toBe(400);
    expect(one.json()).toEqual(errorAnswer(reason, "BAD_REQUEST"));
    expect(await questionsOf(org, shipping.id)).toEqual(full);
    expect(await suggestions(org)).toHaveLength(1);
  });

  it("accepts and dismisses in bulk", async () => {
    const org = await registerOrg(t.app);
    const shipping = await createArticle(t.app, org, SHIPPING);
    const returns = await createArticle(t.app, org, RETURNS);
    for (const [subject, slug] of [
      ["Do you ship to Iceland?", shipping.slug],
      ["Is express delivery possible", shipping.slug],
      ["Can I return a gift?", returns.slug],
      ["Do you refund the postage?", returns.slug],
    ] as const) {
      const ticket = await createTicket(t.app, org, { subject });
      await addComment(t.app, org, ticket.id, { body: link(org, slug) });
    }
    const listed = await suggestions(org);
    expect(listed).toHaveLength(4);
    const byQuestion = (q: string) => listed.find((s) => s.question === q)?.id;

    const dismissed = await review(org, [byQuestion("Do you refund the postage?")], "dismiss");
    expect(dismissed.json<SuggestionsReviewedAnswer>()).toMatchObject({
      dismissed: 1,
      message: "1 suggestion dismissed.",
    });
    const accepted = await review(
      org,
      [
        byQuestion("Do you ship to Iceland?"),
        byQuestion("Is express delivery possible"),
        byQuestion("Can I return a gift?"),
      ],
      "accept",
    );
    expect(accepted.json<SuggestionsReviewedAnswer>()).toMatchObject({
      accepted: 3,
      message: "3 questions added to their articles.",
    });
    expect(await questionsOf(org, shipping.id)).toEqual(["Do you ship to Iceland?", "Is express delivery possible"]);
    expect(await questionsOf(org, returns.id)).toEqual(["Can I return a gift?"]);
    expect(await suggestions(org)).toEqual([]);
  });

  it("with 'accept automatically' a question answered with an article joins it at once, and is answered from it", async () => {
    const org = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    expect((await call(agent, "PUT", "/api/ai/settings", { learn_automatically: true })).statusCode).toBe(403);
    const on = await call(org, "PUT", "/api/ai/settings", { learn_automatically: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().settings.learn_automatically).toBe(true);

    const ticket = await createTicket(t.app, org, { subject: ASKED });
    await addComment(t.app, org, ticket.id, { body: link(org, returns.slug) });
    expect(await questionsOf(org, returns.id)).toEqual([ASKED]);
    expect(await suggestions(org)).toEqual([]);
    const answer = await ask(org, ASKED);
    expect(answer.handoff).toBe(false);
    expect(answer.sources[0]?.id).toBe(returns.id);
  });

  it("keeps review to the organization's admins: another organization gets 404 and changes nothing", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const shipping = await createArticle(t.app, org, SHIPPING);
    const ticket = await createTicket(t.app, org, { subject: "Do you ship to Iceland?" });
    await addComment(t.app, org, ticket.id, { body: link(org, shipping.slug) });
    const [candidate] = await suggestions(org);
    for (const action of ["accept", "dismiss"] as const) {
      const res = await review(other, [candidate?.id], action);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain("Iceland");
    }
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    expect((await review(agent, [candidate?.id], "accept")).statusCode).toBe(403);
    expect(
      (await call(null, "POST", "/api/ai/suggestions/review", { ids: [candidate?.id], action: "accept" })).statusCode,
    ).toBe(401);
    // One id of another organization among its own: nothing is done.
    const mixed = await review(org, [candidate?.id, "00000000-0000-4000-8000-000000000000"], "accept");
    expect(mixed.statusCode).toBe(404);
    expect(await suggestions(org)).toHaveLength(1);
    expect(await questionsOf(org, shipping.id)).toEqual([]);
  });

  it("refuses malformed reviews with the reason", async () => {
    const org = await registerOrg(t.app);
    const cases: [unknown, string][] = [
      [{ ids: [], action: "accept" }, "Choose at least one suggestion"],
      [{ ids: ["not-an-id"], action: "accept" }, "Each suggestion id must be an id from the list"],
      [{ ids: ["00000000-0000-4000-8000-000000000000"], action: "eat" }, "Action must be one of accept, dismiss"],
      [{ ids: "everything", action: "accept" }, "Ids must be a list"],
    ];
    for (const [payload, reason] of cases) {
      const res = await call(org, "POST", "/api/ai/suggestions/review", payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toContain(reason);
    }
  });
});

/** A visitor asks in a live chat; the assistant's answer (the message after the visitor's) and the chat. */
async function visitorAsks(org: Org, question: string) {
  const { chat, base, answer } = await askInChat(t.app, org, question);
  if (!answer) throw new Error(`no answer to ${question}`);
  const rate = async (helpful: boolean) => {
    const res = await call(chat.token, "PUT", `${base}/${chat.session.id}/messages/${answer.id}/feedback`, {
      helpful,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { chat, answer, rate };
}

/** A question the assistant answers from RETURNS in words none of its texts uses alike (no near-duplicate). */
const RATED = "can i send an item back for my money";

describe("a visitor's thumbs up on an answer teaches its question", () => {
  it("makes the question a pending candidate of the answer's article; a thumbs down withdraws it", async () => {
    const org = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    await createArticle(t.app, org, SHIPPING);
    const visit = await visitorAsks(org, RATED);
    expect(visit.answer).toMatchObject({ sender_type: "ai", sources: [{ id: returns.id }] });
    await visit.rate(true);
    const [candidate, ...rest] = await suggestions(org);
    expect(rest).toEqual([]);
    expect(candidate).toMatchObject({
      question: RATED,
      source: "rated",
      article: { id: returns.id, title: RETURNS.title, questions: 0 },
    });
    // Pending: nothing joins the article before an admin accepts it.
    expect(await questionsOf(org, returns.id)).toEqual([]);
    // Rated up again: still one candidate.
    await visit.rate(true);
    expect(await suggestions(org)).toHaveLength(1);
    // The visitor changes their mind: the candidate their thumbs up left goes.
    await visit.rate(false);
    expect(await suggestions(org)).toEqual([]);
    await visit.rate(true);
    const [again] = await suggestions(org);
    expect(again).toMatchObject({ question: RATED, source: "rated" });

    const accepted = await call(org, "POST", `/api/ai/suggestions/${again?.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await questionsOf(org, returns.id)).toEqual([RATED]);
    // Accepted, a later thumbs down does not take it out of the article (the team may in the article's editor).
    await visit.rate(false);
    expect(await questionsOf(org, returns.id)).toEqual([RATED]);
  });

  it("a thumbs down alone suggests nothing", async () => {
    const org = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    const visit = await visitorAsks(org, RATED);
    expect(visit.answer.sources[0]?.id).toBe(returns.id);
    await visit.rate(false);
    expect(await suggestions(org)).toEqual([]);
    expect(await questionsOf(org, returns.id)).toEqual([]);
  });

  it("with 'accept automatically' the rated question joins its article at once, and is answered from it", async () => {
    const org = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    await createArticle(t.app, org, SHIPPING);
    expect((await call(org, "PUT", "/api/ai/settings", { learn_automatically: true })).statusCode).toBe(200);
    const before = await ask(org, RATED);
    const visit = await visitorAsks(org, RATED);
    await visit.rate(true);
    expect(await questionsOf(org, returns.id)).toEqual([RATED]);
    expect(await suggestions(org)).toEqual([]);
    const after = await ask(org, RATED);
    expect(after.handoff).toBe(false);
    expect(after.sources[0]?.id).toBe(returns.id);
    // Now one of the article's own questions: the assistant is surer of it than before.
    expect(after.confidence).toBeGreaterThan(before.confidence);
  });

  it("does not suggest a near-duplicate of one of the article's example questions", async () => {
    const org = await registerOrg(t.app);
    const shipping = await createArticle(t.app, org, { ...SHIPPING, questions: ["Do you ship to Iceland?"] });
    const visit = await visitorAsks(org, "do you SHIP to iceland");
    expect(visit.answer.sources[0]?.id).toBe(shipping.id);
    await visit.rate(true);
    expect(await suggestions(org)).toEqual([]);
    expect(await questionsOf(org, shipping.id)).toEqual(["Do you ship to Iceland?"]);
  });

  it("learns nothing from the staff console's thumbs, nor from the public demo's", async () => {
    const org = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    const console = await ask(org, RATED);
    expect(console.sources[0]?.id).toBe(returns.id);
    const rated = await call(org, "POST", "/api/chat/ai-feedback", { answerId: console.answerId, helpful: true });
    expect(rated.statusCode, rated.body).toBe(200);
    // A member rating a chat's answer from the console is not the visitor's rating either.
    const visit = await visitorAsks(org, RATED);
    const [logged] = await t.database.db
      .select({ id: chatMessages.aiAnswerId })
      .from(chatMessages)
      .where(eq(chatMessages.id, visit.answer.id));
    const byStaff = await call(org, "POST", "/api/chat/ai-feedback", { answerId: logged?.id, helpful: true });
    expect(byStaff.statusCode, byStaff.body).toBe(200);
    expect(await suggestions(org)).toEqual([]);

    const demoId = await demoOrganization(t);
    // A made-up word keeps this article apart from any other a shared test database holds for the demo.
    const word = `zorbly${Date.now()}`;
    const article = await addArticle(t, demoId, {
      title: `Returning a ${word} jacket`,
      body: `Send the ${word} jacket back within 30 days and we refund you.`,
    });
    const asked = await call(null, "POST", "/api/chat/ai-response", { message: `can my ${word} jacket go back` });
    expect(asked.statusCode, asked.body).toBe(200);
    const demo = asked.json<AiResponseAnswer>();
    expect(demo.sources[0]?.id).toBe(article.id);
    const byVisitor = await call(null, "POST", "/api/chat/ai-feedback", { answerId: demo.answerId, helpful: true });
    expect(byVisitor.statusCode, byVisitor.body).toBe(200);
    const suggested = await t.database.db
      .select({ id: aiQuestionSuggestions.id })
      .from(aiQuestionSuggestions)
      .where(eq(aiQuestionSuggestions.articleId, article.id));
    expect(suggested).toEqual([]);
  });

  it("keeps a rated candidate to its organization: another gets 404 and sees nothing", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const returns = await createArticle(t.app, org, RETURNS);
    await createArticle(t.app, other, RETURNS);
    const visit = await visitorAsks(org, RATED);
    await visit.rate(true);
    const [candidate] = await suggestions(org);
    expect(candidate?.source).toBe("rated");
    expect(await suggestions(other)).toEqual([]);
    for (const path of [
      `/api/ai/suggestions/${candidate?.id}/accept`,
      `/api/ai/suggestions/${candidate?.id}/dismiss`,
    ]) {
      const res = await call(other, "POST", path);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain("money");
    }
    const bulk = await review(other, [candidate?.id], "accept");
    expect(bulk.statusCode, bulk.body).toBe(404);
    expect(await suggestions(org)).toHaveLength(1);
    expect(await questionsOf(org, returns.id)).toEqual([]);
  });
});

describe("questions no article covers", () => {
  it("leave the unanswered list when a person marks them; another organization marks nothing", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    await createArticle(t.app, org, SHIPPING);
    const question = "Do you sell gift cards?";
    expect((await ask(org, question)).handoff).toBe(true);
    // Another organization's question is not found, alone or beside one of its own, and nothing is marked.
    await createArticle(t.app, other, SHIPPING);
    const theirOwn = "Can I pay in instalments?";
    expect((await ask(other, theirOwn)).handoff).toBe(true);
    for (const questions of [[question], [theirOwn, question]]) {
      const theirs = await call(other, "POST", "/api/ai/unanswered/not-covered", { questions });
      expect(theirs.statusCode, theirs.body).toBe(404);
      expect(theirs.json().error).toMatch(/nanswered question not found/);
      expect(theirs.body).not.toContain("gift");
    }
    const theirList = (await call(other, "GET", "/api/ai/unanswered")).json().groups;
    expect(theirList.map((g: { question: string }) => g.question)).toEqual([theirOwn]);
    expect((await call(other, "GET", "/api/ai/threshold")).json().labelled).toEqual({
      answerable: 0,
      uncovered: 0,
      wrong: 0,
    });
    const stillListed = (await call(org, "GET", "/api/ai/unanswered")).json().groups;
    expect(stillListed.map((g: { question: string }) => g.question)).toEqual([question]);
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    expect((await call(agent, "POST", "/api/ai/unanswered/not-covered", { questions: [question] })).statusCode).toBe(
      403,
    );
    const marked = await call(org, "POST", "/api/ai/unanswered/not-covered", { questions: [question] });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ reviewed: 1 });
    const list = await call(org, "GET", "/api/ai/unanswered");
    expect(list.json().groups).toEqual([]);
    // Once dealt with, it is no longer an unanswered question.
    const again = await call(org, "POST", "/api/ai/unanswered/not-covered", { questions: [question] });
    expect(again.statusCode).toBe(404);
    const bad = await call(org, "POST", "/api/ai/unanswered/not-covered", { questions: [] });
    expect(bad.statusCode).toBe(400);
  });
});
