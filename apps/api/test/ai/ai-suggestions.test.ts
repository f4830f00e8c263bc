import { describe, expect, it } from "vitest";
import { linkedArticleSlugs } from "../../src/modules/ai/suggestions.ts";
import {
  addComment,
  addMember,
  client,
  createArticle,
  createTicket,
  registerOrg,
  testAppForFile,
  xssPayloads,
} from "../helpers.ts";
import { articleLink, suggestionReads, visitorAsks } from "../support/suggestions.ts";

const t = testAppForFile();

const call = client(() => t.app);
type Org = Awaited<ReturnType<typeof registerOrg>>;

async function shipping(org: Org, overrides: Record<string, unknown> = {}) {
  return createArticle(t.app, org, {
    title: "How long does shipping take?",
    body: "Orders ship in 2 days. International orders take 7 to 10 days.",
    status: "published",
    ...overrides,
  });
}

const link = articleLink;
const { suggestions, questionsOf } = suggestionReads(() => t.app);

async function startChat(org: Org, question: string) {
  return (await visitorAsks(t.app, org, question, "Lee Park")).chat;
}

describe("links in agents' answers suggest example questions", () => {
  it("finds the organization's article links in a reply, full addresses and paths alike", () => {
    const text =
      "See http://x.test/help/acme/articles/how-long-does-shipping-take?utm=1 and /help/acme/articles/returns. " +
      "Not /help/other-shop/articles/secret nor /help/acme/articles/%E0%A4%A.";
    expect(linkedArticleSlugs(text, "acme")).toEqual(["how-long-does-shipping-take", "returns"]);
  });

  it("suggests a ticket's subject for the article a public reply links; accepting adds it to the article", async () => {
    const org = await registerOrg(t.app);
    const article = await shipping(org);
    const ticket = await createTicket(t.app, org, { subject: "When will my parcel arrive in Canada?" });
    await addComment(t.app, org, ticket.id, { body: `Hi! This explains it: ${link(org, article.slug)}` });

    const [suggested, ...rest] = await suggestions(org);
    expect(rest).toEqual([]);
    expect(suggested).toMatchObject({
      question: "When will my parcel arrive in Canada?",
      source: "ticket",
      article: { id: article.id, title: "How long does shipping take?" },
    });

    const accepted = await call(org, "POST", `/api/ai/suggestions/${suggested?.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().message).toBe(
      '"When will my parcel arrive in Canada?" is now an example question of "How long does shipping take?".',
    );
    expect(await questionsOf(org, article.id)).toContain("When will my parcel arrive in Canada?");
    expect(await suggestions(org)).toEqual([]);
    // Reviewed once: a second accept finds nothing to accept.
    expect((await call(org, "POST", `/api/ai/suggestions/${suggested?.id}/accept`)).statusCode).toBe(404);

    // The same question linked again is not suggested again (it is now one of the article's questions).
    const again = await createTicket(t.app, org, { subject: "when will my parcel arrive in canada" });
    await addComment(t.app, org, again.id, { body: link(org, article.slug) });
    expect(await suggestions(org)).toEqual([]);
  });

  it("suggests what a chat visitor asked when an agent answers with a link", async () => {
    const org = await registerOrg(t.app);
    const article = await shipping(org);
    const chat = await startChat(org, "Do you deliver to Norway and how long would it take");
    const sent = await call(org, "POST", `/api/chat/sessions/${chat.session.id}/messages`, {
      message: `Yes we do! ${link(org, article.slug)}`,
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [suggested] = await suggestions(org);
    expect(suggested).toMatchObject({
      question: "Do you deliver to Norway and how long would it take",
      source: "chat",
      article: { id: article.id },
    });
  });

  it("ignores internal notes, drafts, other organizations' links, customers' own links and the article's own title", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const article = await shipping(org);
    const draft = await createArticle(t.app, org, { title: "Customs fees", body: "Draft.", status: "draft" });
    const theirs = await shipping(other);
    const ticket = await createTicket(t.app, org, { subject: "Parcel stuck at customs" });
    await addComment(t.app, org, ticket.id, { body: link(org, article.slug), is_public: false });
    await addComment(t.app, org, ticket.id, { body: link(org, draft.slug) });
    await addComment(t.app, org, ticket.id, { body: link(other, theirs.slug) });
    const titled = await createTicket(t.app, org, { subject: "How long does shipping take" });
    await addComment(t.app, org, titled.id, { body: link(org, article.slug) });
    expect(await suggestions(org)).toEqual([]);
    expect(await suggestions(other)).toEqual([]);
  });

  it("lets an admin dismiss a suggestion, which is not suggested again", async () => {
    const org = await registerOrg(t.app);
    const article = await shipping(org);
    const ticket = await createTicket(t.app, org, { subject: "Is shipping free?" });
    await addComment(t.app, org, ticket.id, { body: link(org, article.slug) });
    const [suggested] = await suggestions(org);
    const dismissed = await call(org, "POST", `/api/ai/suggestions/${suggested?.id}/dismiss`);
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(dismissed.json().message).toBe("Suggestion dismissed.");
    const again = await createTicket(t.app, org, { subject: "Is shipping free?" });
    await addComment(t.app, org, again.id, { body: link(org, article.slug) });
    expect(await suggestions(org)).toEqual([]);
    expect(await questionsOf(org, article.id)).toEqual([]);
  });

  it("keeps suggestions to their organization and their review to admins", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    const article = await shipping(org);
    const ticket = await createTicket(t.app, org, { subject: "Do you ship to Iceland?" });
    await addComment(t.app, org, ticket.id, { body: link(org, article.slug) });
    const [suggested] = await suggestions(org);
    expect(await suggestions(other)).toEqual([]);
    for (const action of ["accept", "dismiss"]) {
      const res = await call(other, "POST", `/api/ai/suggestions/${suggested?.id}/${action}`);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain("Iceland");
    }
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    expect((await call(agent, "GET", "/api/ai/suggestions")).statusCode).toBe(200);
    expect((await call(agent, "POST", `/api/ai/suggestions/${suggested?.id}/accept`)).statusCode).toBe(403);
    expect((await call(org, "POST", "/api/ai/suggestions/not-an-id/accept")).statusCode).toBe(404);
    expect((await call(null, "GET", "/api/ai/suggestions")).statusCode).toBe(401);
    expect(await suggestions(org)).toHaveLength(1);
  });

  it("keeps a suggested question as text, markup and all", async () => {
    const org = await registerOrg(t.app);
    const article = await shipping(org);
    const payload = xssPayloads().find((p) => p.length <= 200) ?? "<script>alert(1)</script>";
    const ticket = await createTicket(t.app, org, { subject: payload });
    await addComment(t.app, org, ticket.id, { body: link(org, article.slug) });
    const [suggested] = await suggestions(org);
    expect(suggested?.question).toBe(payload.replace(/\s+/g, " ").trim());
  });
});
