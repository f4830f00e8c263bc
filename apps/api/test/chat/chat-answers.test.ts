import type { AiStatsAnswer, AiUnansweredAnswer } from "@cove/contract/ai.ts";
import type { AnswerNode, ChatMessage, StartChatAnswer, VisitorConversationAnswer } from "@cove/contract/chat.ts";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { aiAnswers } from "../../src/db/schema/ai.ts";
import { chatMessages } from "../../src/db/schema/chat.ts";
import { answerNodes } from "../../src/modules/chat/answer-nodes.ts";
import { insertMessage } from "../../src/modules/chat/chat.queries.ts";
import { queryRows } from "../../src/platform/db.ts";
import { chatMarkdownHtml } from "../../src/platform/markdown.ts";
import { withSystem } from "../../src/platform/tenancy.ts";
import { client, type Org, orgForFile, testAppForFile } from "../helpers.ts";
import { addArticle, demoOrganization, SHOP_ARTICLES } from "../support/kb-fixtures.ts";

/*
 * The assistant's answers in the chat widget (and the portal's chat, which is the widget): rendered from their
 * Markdown as the help center renders articles, and rated by the visitor with "Was this helpful?" (issue 21).
 */

const t = testAppForFile();
const shop = orgForFile(t);
const other = orgForFile(t);
beforeAll(async () => {
  for (const org of [shop, other]) {
    for (const a of SHOP_ARTICLES) await addArticle(t, org.user.organizationId, a);
  }
});

const call = client(() => t.app, { newAddressEachCall: true });
const base = (org: Org) => `/api/public/${org.user.organizationSlug}/chat/sessions`;

async function startChat(org: Org): Promise<StartChatAnswer> {
  const res = await call(null, "POST", base(org), { name: "Lee Park" });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as StartChatAnswer;
}

/** The visitor asks; answers the assistant's answer (the message after the visitor's). */
async function ask(org: Org, chat: StartChatAnswer, message: string): Promise<ChatMessage> {
  const res = await call(chat.token, "POST", `${base(org)}/${chat.session.id}/messages`, { message });
  expect(res.statusCode, res.body).toBe(201);
  const [, answer] = res.json().messages as ChatMessage[];
  if (!answer) throw new Error(`no answer to ${message}`);
  return answer;
}

const rate = (org: Org, chat: { token: string; session: { id: string } }, messageId: string, payload: unknown) =>
  call(chat.token, "PUT", `${base(org)}/${chat.session.id}/messages/${messageId}/feedback`, payload);

async function conversation(org: Org, chat: StartChatAnswer): Promise<VisitorConversationAnswer> {
  const res = await call(chat.token, "GET", `${base(org)}/${chat.session.id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as VisitorConversationAnswer;
}

async function stats(org: Org): Promise<AiStatsAnswer> {
  const res = await call(org.token, "GET", "/api/ai/stats");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiStatsAnswer;
}

async function unansweredQuestions(org: Org): Promise<string[]> {
  const res = await call(org.token, "GET", "/api/ai/unanswered");
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as AiUnansweredAnswer).groups.flatMap((g) => g.questions);
}

/** The text a node of an answer shows, its children's included. */
function textOf(nodes: AnswerNode[], index: number): string {
  const node = nodes[index];
  if (!node) return "";
  if (node.tag === "#text") return node.text ?? "";
  return nodes.map((n, i) => (n.parent === index ? textOf(nodes, i) : "")).join("");
}

async function feedbackOf(messageId: string) {
  const [row] = await t.database.db
    .select({ feedback: aiAnswers.feedback, channel: aiAnswers.channel })
    .from(chatMessages)
    .innerJoin(aiAnswers, eq(aiAnswers.id, chatMessages.aiAnswerId))
    .where(eq(chatMessages.id, messageId));
  return row;
}

describe("answers render as the help center renders articles", () => {
  it("sends an answer's list as sanitized HTML beside its text; the visitor's and the greeting stay plain", async () => {
    const chat = await startChat(shop);
    const answer = await ask(shop, chat, "How do I start a return? What are the steps?");
    expect(answer.sender_type).toBe("ai");
    // The answer quotes the article's Markdown, so its emphasis comes through as the help center shows it.
    expect(answer.message).toContain("1. Sign in and open **Orders**.");
    expect(answer.html).toContain("<ol>");
    expect(answer.html).toContain("<li>Sign in and open <strong>Orders</strong>.</li>");
    expect(answer.html).toContain("<li>Choose the item and select <em>Return item</em>.</li>");
    // The line structure of the text is kept: a heading line is not run into the paragraph after it.
    expect(answer.html).toMatch(/<br>|<\/p>/);
    // The same answer as nodes, which the widget builds without parsing HTML: the list with its steps as items.
    const nodes = answer.nodes ?? [];
    const list = nodes.findIndex((n) => n.tag === "ol");
    const items = nodes.flatMap((n, i) => (n.tag === "li" && n.parent === list ? [textOf(nodes, i)] : []));
    expect(items).toContain("Sign in and open Orders.");
    expect(items).toContain("Choose the item and select Return item.");
    const { messages } = await conversation(shop, chat);
    expect(messages.find((m) => m.id === answer.id)?.html).toBe(answer.html);
    expect(messages.find((m) => m.id === answer.id)?.nodes).toEqual(answer.nodes);
    for (const m of messages.filter((x) => x.sender_type !== "ai" || x.id === chat.messages[0]?.id)) {
      expect(m.html, m.message).toBeUndefined();
      expect(m.feedback, m.message).toBeUndefined();
    }
  });

  it("keeps what cannot run as text: script links dropped, raw HTML escaped, web links opened safely", async () => {
    const html = await chatMarkdownHtml(
      [
        "Steps:",
        "1. [click me](javascript:alert(1))",
        '2. <img src=x onerror="alert(1)"> and <script>alert("x")</script>',
        "3. See [our page](https://shop.example/returns) or https://shop.example/help",
        "",
        "| Option | Cost |",
        "|---|---|",
        "| Standard | $5 |",
      ].join("\n"),
    );
    // Every element is one Markdown makes, with no handler and no script address (a "<" of the text is "&lt;").
    for (const [element, tag, attributes] of html.matchAll(/<([a-z][a-z0-9]*)([^>]*)>/g)) {
      expect(["p", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td"], element).toContain(tag);
      expect(attributes, element).not.toMatch(/\son\w*=|script:/i);
    }
    expect(html).toContain("<li>[click me](javascript:alert(1))</li>");
    expect(html).toContain('&lt;script&gt;alert("x")&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror="alert(1)"&gt;');
    expect(html).toContain(
      '<a href="https://shop.example/returns" target="_blank" rel="noopener noreferrer nofollow">our page</a>',
    );
    expect(html).toContain('<a href="https://shop.example/help" target="_blank" rel="noopener noreferrer nofollow">');
    expect(html).toContain("<td>Standard</td>");
  });
});

describe("answers as nodes for the widget (no HTML parsed on the customer's website)", () => {
  it("keeps the elements Markdown makes with their text and safe addresses, and nothing else", async () => {
    const html = await chatMarkdownHtml(
      "1. See [our page](https://shop.example/returns) & [help](/help/shop)\n2. [click me](javascript:alert(1))",
    );
    const nodes = answerNodes(html);
    const links = nodes.flatMap((n, i) => (n.tag === "a" ? [{ href: n.href, text: textOf(nodes, i) }] : []));
    expect(links).toEqual([
      { href: "https://shop.example/returns", text: "our page" },
      { href: "/help/shop", text: "help" },
    ]);
    expect(nodes.filter((n) => n.tag === "li").map((n) => textOf(nodes, nodes.indexOf(n)))).toEqual([
      "See our page & help",
      "[click me](javascript:alert(1))",
    ]);
  });

  it("applies its own allow-list even to HTML the sanitizer never saw", () => {
    const nodes = answerNodes(
      [
        '<p onclick="steal()" style="color:red">Hi <span>there</span><script>alert(1)</script>',
        '<a href="javascript:alert(1)">bad</a> <a href=" JAVASCRIPT:alert(1)">worse</a>',
        '<a href="//evil.example/x">far</a> <a href="mailto:help@shop.example" title="Mail us">mail</a>',
        '<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="a picture"><img src="https://shop.example/a.png" onerror="x()">',
        '<iframe src="https://evil.example"><b>inside</b></iframe><style>p{}</style></p>',
        '<ol start="3"><li>third &amp; &lt;last&gt;</li></ol>',
      ].join(""),
    );
    for (const node of nodes) {
      expect(
        Object.keys(node).every((k) => ["parent", "tag", "text", "href", "src", "alt", "title", "start"].includes(k)),
      );
      expect(JSON.stringify(node)).not.toMatch(/javascript|onclick|onerror|evil|alert\(1\)<|steal/i);
    }
    const tags = nodes.map((n) => n.tag).filter((tag) => tag !== "#text");
    expect(tags).toEqual(["p", "a", "a", "a", "a", "img", "ol", "li"]);
    expect(textOf(nodes, 0)).toBe("Hi therebad worsefar maila picture");
    const anchors = nodes.filter((n) => n.tag === "a");
    expect(anchors.map((a) => a.href)).toEqual([undefined, undefined, undefined, "mailto:help@shop.example"]);
    expect(anchors[3]?.title).toBe("Mail us");
    expect(nodes.find((n) => n.tag === "img")).toMatchObject({ src: "https://shop.example/a.png" });
    expect(nodes.find((n) => n.tag === "ol")?.start).toBe(3);
    expect(
      textOf(
        nodes,
        nodes.findIndex((n) => n.tag === "li"),
      ),
    ).toBe("third & <last>");
  });
});

describe("Was this helpful? in the widget", () => {
  it("records the visitor's thumbs down on the answer: the question joins the unanswered list and the ratings", async () => {
    const before = await stats(shop);
    const chat = await startChat(shop);
    const answer = await ask(shop, chat, "Where is my order?");
    expect(answer.feedback).toBeNull();
    expect(await unansweredQuestions(shop)).not.toContain("Where is my order?");

    const res = await rate(shop, chat, answer.id, { helpful: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatchObject({ id: answer.id, feedback: "down", html: answer.html });
    expect(await feedbackOf(answer.id)).toEqual({ feedback: "down", channel: "chat" });
    expect((await conversation(shop, chat)).messages.find((m) => m.id === answer.id)?.feedback).toBe("down");
    expect(await unansweredQuestions(shop)).toContain("Where is my order?");
    const after = await stats(shop);
    expect(after.rated_unhelpful).toBe(before.rated_unhelpful + 1);
    expect(after.rated_helpful).toBe(before.rated_helpful);
  });

  it("keeps one rating per answer: a later thumbs replaces the earlier one", async () => {
    const chat = await startChat(shop);
    const answer = await ask(shop, chat, "I forgot my password");
    expect((await rate(shop, chat, answer.id, { helpful: false })).statusCode).toBe(200);
    const before = await stats(shop);
    const res = await rate(shop, chat, answer.id, { helpful: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message.feedback).toBe("up");
    const after = await stats(shop);
    expect(after.rated_helpful).toBe(before.rated_helpful + 1);
    expect(after.rated_unhelpful).toBe(before.rated_unhelpful - 1);
    expect(await unansweredQuestions(shop)).not.toContain("I forgot my password");
  });

  it("can be given after the chat has ended", async () => {
    const chat = await startChat(shop);
    const answer = await ask(shop, chat, "Do you ship internationally?");
    const closed = await call(shop.token, "PUT", `/api/chat/sessions/${chat.session.id}`, { status: "closed" });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await rate(shop, chat, answer.id, { helpful: true })).statusCode).toBe(200);
    expect(await feedbackOf(answer.id)).toMatchObject({ feedback: "up" });
  });
});

describe("only the visitor whose chat it is may rate an answer", () => {
  it("another visitor of the organization gets 404, through their own session or the owner's", async () => {
    const owner = await startChat(shop);
    const answer = await ask(shop, owner, "Where is my order?");
    const stranger = await startChat(shop);
    expect((await rate(shop, stranger, answer.id, { helpful: false })).statusCode).toBe(404);
    const viaOwners = { token: stranger.token, session: owner.session };
    expect((await rate(shop, viaOwners, answer.id, { helpful: false })).statusCode).toBe(404);
    expect((await feedbackOf(answer.id))?.feedback).toBeNull();
  });

  it("another organization's visitor gets 404, at its own address or the answer's", async () => {
    const owner = await startChat(shop);
    const answer = await ask(shop, owner, "Where is my order?");
    const outsider = await startChat(other);
    expect((await rate(other, outsider, answer.id, { helpful: false })).statusCode).toBe(404);
    const viaShop = { token: outsider.token, session: owner.session };
    expect((await rate(shop, viaShop, answer.id, { helpful: false })).statusCode).toBe(404);
    expect((await rate(other, viaShop, answer.id, { helpful: false })).statusCode).toBe(404);
    expect((await feedbackOf(answer.id))?.feedback).toBeNull();
  });

  it("a signed-out /ai-test visitor cannot rate an answer given in a chat, even in the demo organization", async () => {
    const demoId = await demoOrganization(t);
    const [demo] = await queryRows<{ slug: string }>(
      t.database.db,
      sql`select slug from organizations where id = ${demoId}`,
    );
    await addArticle(t, demoId, SHOP_ARTICLES[1]);
    const demoOrg = { ...shop, user: { ...shop.user, organizationSlug: demo?.slug ?? "" } } as Org;
    const chat = await startChat(demoOrg);
    const answer = await ask(demoOrg, chat, "Where is my order?");
    const [logged] = await t.database.db
      .select({ id: chatMessages.aiAnswerId })
      .from(chatMessages)
      .where(eq(chatMessages.id, answer.id));
    const res = await call(null, "POST", "/api/chat/ai-feedback", { answerId: logged?.id, helpful: false });
    expect(res.statusCode).toBe(404);
    expect((await feedbackOf(answer.id))?.feedback).toBeNull();
  });

  it("messages written in one transaction keep their order, though the embedded database's clock counts milliseconds", async () => {
    const chat = await startChat(shop);
    const texts = Array.from({ length: 30 }, (_, i) => `Note ${i}`);
    await withSystem(t.database.db, shop.user.organizationId, "test", async (ctx) => {
      for (const message of texts)
        await insertMessage(ctx, { sessionId: chat.session.id, senderType: "system", message });
    });
    const { messages } = await conversation(shop, chat);
    expect(messages.filter((m) => m.sender_type === "system").map((m) => m.message)).toEqual(texts);
  });

  it("only the assistant's answers can be rated: not the greeting, the visitor's message or a hand-off", async () => {
    const chat = await startChat(shop);
    const answer = await ask(shop, chat, "I want to talk to a human please");
    const res = await call(chat.token, "GET", `${base(shop)}/${chat.session.id}`);
    const messages = (res.json() as VisitorConversationAnswer).messages;
    expect(messages.map((m) => m.sender_type)).toEqual(["ai", "visitor", "ai", "system"]);
    expect(answer.feedback).toBeUndefined();
    for (const m of messages) {
      expect((await rate(shop, chat, m.id, { helpful: true })).statusCode, m.message).toBe(404);
    }
  });

  it("staff tokens are refused; no token is 401; malformed ids are 404; a bad body is 400", async () => {
    const chat = await startChat(shop);
    const answer = await ask(shop, chat, "Where is my order?");
    expect(
      (await rate(shop, { token: shop.token, session: chat.session }, answer.id, { helpful: true })).statusCode,
    ).toBe(403);
    const anonymous = await call(null, "PUT", `${base(shop)}/${chat.session.id}/messages/${answer.id}/feedback`, {
      helpful: true,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await rate(shop, chat, "not-an-id", { helpful: true })).statusCode).toBe(404);
    expect((await rate(shop, { ...chat, session: { id: "nope" } }, answer.id, { helpful: true })).statusCode).toBe(404);
    for (const payload of [{}, { helpful: "yes" }, { helpful: null }, { helpful: 1 }]) {
      const bad = await rate(shop, chat, answer.id, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error).toBeTruthy();
    }
    expect((await feedbackOf(answer.id))?.feedback).toBeNull();
  });

  it("the database itself lets a visitor's transaction rate only the answers of its own chats", async () => {
    const mine = await startChat(shop);
    const myAnswer = await ask(shop, mine, "Where is my order?");
    const theirs = await startChat(shop);
    const theirAnswer = await ask(shop, theirs, "Where is my order?");
    const ids = await queryRows<{ id: string; contact_id: string; answer_id: string }>(
      t.database.db,
      sql`select m.id, s.contact_id, m.ai_answer_id as answer_id from chat_messages m
          join chat_sessions s on s.id = m.session_id where m.id in (${myAnswer.id}, ${theirAnswer.id})`,
    );
    const mineRow = ids.find((r) => r.id === myAnswer.id);
    const theirRow = ids.find((r) => r.id === theirAnswer.id);
    const changed = await t.database.db.transaction(async (tx) => {
      await queryRows(
        tx,
        sql`select set_config('app.org_id', ${shop.user.organizationId}, true),
                   set_config('app.contact_id', ${mineRow?.contact_id ?? ""}, true), set_config('role', 'cove_contact', true)`,
      );
      return queryRows<{ id: string }>(
        tx,
        sql`update ai_answers set feedback = 'down' where id in (${mineRow?.answer_id}, ${theirRow?.answer_id}) returning id`,
      );
    });
    expect(changed.map((r) => r.id)).toEqual([mineRow?.answer_id]);
  });
});
