import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { DEMO, signIn } from "./support.ts";

/**
 * Live chat end to end, in two browsers: a plain HTML page on another origin, with a strict Content-Security-Policy of
 * its own, embeds the widget with one script tag; the visitor asks what the demo knowledge base answers (the assistant
 * answers with its source), then asks for a person; Dana, the demo admin, sees the session arrive live in /chat, takes
 * it and replies; the visitor sees the reply without a reload, and after a reload the conversation is still there;
 * Dana closes it. Live steps wait up to 10 s: the machines that run this are shared and busy.
 */
/**
 * The customer's own website: a plain page on another origin (127.0.0.1 and its own port; Cove is on localhost), served
 * by a real server, since Chromium refuses requests to loopback addresses from a page it did not load from one.
 */
async function serveShop(cove: string): Promise<{ server: Server; url: string }> {
  const ws = cove.replace(/^http/, "ws");
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      // A strict policy of its own: Cove's script and calls, and nothing else (no inline styles or scripts).
      "content-security-policy": `default-src 'none'; script-src ${cove}; connect-src ${cove} ${ws}; style-src 'self'`,
    });
    res.end(`<!doctype html><html><head><title>Acme shop</title></head>
      <body><h1>Acme Outdoor shop</h1>
      <script src="${cove}/widget.js" data-org="acme" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

let shop: { server: Server; url: string } | null = null;
test.afterAll(() => shop?.server.close());

test("a visitor on another website chats with the assistant, then with a person, live", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const cove = baseURL ?? "http://localhost:3210";
  const id = Date.now().toString(36);

  const dana = await (await browser.newContext()).newPage();
  await signIn(dana, DEMO.email, DEMO.password);
  await expect(dana).toHaveURL(/\/dashboard$/);
  await dana.goto("/chat");
  await expect(dana.getByRole("heading", { name: "Live Chat", level: 1 })).toBeVisible();

  shop = await serveShop(cove);
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(shop.url);
  await expect(visitor.getByRole("heading", { name: "Acme Outdoor shop" })).toBeVisible();

  // Playwright's locators pierce the widget's shadow root.
  await visitor.getByRole("button", { name: "Open chat" }).click();
  const panel = visitor.getByRole("dialog", { name: "Chat" });
  await expect(panel.getByRole("heading", { name: "Acme Outdoor Co." })).toBeVisible();
  await panel.getByLabel("Name").fill(`Rosa ${id}`);
  await panel.getByLabel("Email").fill(`rosa-${id}@example.com`);
  await panel.getByRole("button", { name: "Start chat" }).click();

  const message = panel.getByRole("textbox", { name: "Message" });
  await message.fill("How long do refunds take?");
  await message.press("Enter");
  await expect(panel.getByText(/refund within 3 business days/i)).toBeVisible({ timeout: 10_000 });
  await expect(panel.getByRole("link", { name: "When will I get my refund?" })).toHaveAttribute(
    "href",
    new RegExp(`^${cove}/help/acme/articles/`),
  );

  // The session appears on Dana's screen without a reload.
  const session = dana.getByRole("button", { name: new RegExp(`Rosa ${id}`) });
  await expect(session).toBeVisible({ timeout: 10_000 });

  await message.fill("I want to talk to a person");
  await message.press("Enter");
  await expect(panel.getByText("A person from our team will reply here shortly.")).toBeVisible({ timeout: 10_000 });
  await expect(session.getByText(/Waiting for a person/)).toBeVisible({ timeout: 10_000 });

  await session.click();
  const conversation = dana.getByRole("region", { name: `Chat with Rosa ${id}` });
  await conversation.getByRole("button", { name: "Take" }).click();
  await expect(session.getByText("With Dana Whitfield")).toBeVisible({ timeout: 10_000 });
  // Typing shows both ways. At a person's pace: the widget says "typing" at most every two seconds while keys come, so
  // a late look at the conversation still finds it (typed all at once, one frame would have to be caught in time).
  await message.pressSequentially("One more thing", { delay: 150 });
  await expect(conversation.getByText(`Rosa ${id} is typing…`)).toBeVisible({ timeout: 10_000 });
  await conversation.getByRole("textbox", { name: "Message" }).pressSequentially("Hi");
  await expect(panel.getByText("Dana is typing…")).toBeVisible({ timeout: 10_000 });
  await message.fill("");
  await conversation.getByRole("textbox", { name: "Message" }).fill("Hi Rosa, Dana here. Let me look at your order.");
  await conversation.getByRole("button", { name: "Send" }).click();

  // The reply reaches the visitor live, and survives a reload.
  await expect(panel.getByText("Hi Rosa, Dana here. Let me look at your order.")).toBeVisible({ timeout: 10_000 });
  await visitor.reload();
  await visitor.getByRole("button", { name: "Open chat" }).click();
  await expect(
    visitor.getByRole("dialog", { name: "Chat" }).getByText("Hi Rosa, Dana here. Let me look at your order."),
  ).toBeVisible({ timeout: 10_000 });

  await conversation.getByRole("button", { name: "Close" }).click();
  await dana.getByRole("alertdialog").getByRole("button", { name: "Close session" }).click();
  await expect(dana.getByText("Chat session closed successfully.")).toBeVisible();
  await expect(dana.getByText("Select a session to see the conversation.")).toBeVisible();
  await expect(visitor.getByText("This chat has ended.")).toBeVisible({ timeout: 10_000 });
  // The visitor answers How did we do?; it counts in the dashboard's satisfaction (a person handled this one).
  await expect(panel.getByText("How did we do?")).toBeVisible();
  await panel.getByRole("button", { name: "Good" }).click();
  await expect(panel.getByText("Thanks for your feedback.")).toBeVisible();
  await expect(panel.getByRole("button", { name: "Good" })).toBeHidden();
});

test("a visitor reads an answer's steps as a list in the widget, rates it unhelpful, and the admin sees the question", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const cove = baseURL ?? "http://localhost:3210";
  const word = `Quill${Date.now().toString(36)}`;

  // Dana writes a help article whose answer is a list of steps.
  const dana = await (await browser.newContext()).newPage();
  await signIn(dana, DEMO.email, DEMO.password);
  await expect(dana).toHaveURL(/\/dashboard$/);
  const token = await dana.evaluate(
    () => (JSON.parse(localStorage.getItem("cove.session") ?? "{}") as { token?: string }).token,
  );
  const created = await dana.request.post("/api/kb/articles", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      title: `How do I rent a ${word} kayak?`,
      body: `To rent a ${word} kayak:\n\n1. Book a slot on the **Rentals** page.\n2. Bring a photo ID to the lake shop.\n3. Sign the safety form at the counter.`,
      questions: [],
      status: "published",
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  shop ??= await serveShop(cove);
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(shop.url);
  await visitor.getByRole("button", { name: "Open chat" }).click();
  const panel = visitor.getByRole("dialog", { name: "Chat" });
  await panel.getByRole("button", { name: "Start chat" }).click();
  const question = `How do I rent a ${word} kayak?`;
  const message = panel.getByRole("textbox", { name: "Message" });
  await message.fill(question);
  await message.press("Enter");

  // The steps are a real list, not Markdown's numbers in a line of text.
  const answer = panel.getByRole("listitem").filter({ hasText: "Assistant" }).filter({ hasText: "photo ID" });
  const steps = answer.getByRole("list").first();
  await expect(steps.getByRole("listitem")).toHaveText([
    "Book a slot on the Rentals page.",
    "Bring a photo ID to the lake shop.",
    "Sign the safety form at the counter.",
  ]);
  await expect(answer).not.toContainText("1. Book");

  // Was this helpful? No: one rating, pressed, thanked; reachable from the keyboard.
  const rating = answer.getByRole("group", { name: "Was this helpful?" });
  await rating.getByRole("button", { name: "No" }).focus();
  await visitor.keyboard.press("Enter");
  await expect(rating.getByRole("button", { name: "No" })).toHaveAttribute("aria-pressed", "true");
  await expect(rating.getByRole("button", { name: "Yes" })).toHaveAttribute("aria-pressed", "false");
  await expect(rating.getByText("Thanks for your feedback.")).toBeVisible();
  await visitor.screenshot({ path: "test-results/widget-answer-rated.png" });

  // The admin finds the question among those the assistant could not answer.
  await dana.goto("/ai-assistant");
  const list = dana.getByRole("region", { name: "Questions the assistant could not answer" });
  // The group's item, and the question's own line inside it.
  await expect(list.getByRole("listitem").filter({ hasText: question }).first()).toBeVisible();
});

test("@phone an agent reads and answers chats on a phone: the list, then one conversation with a way back", async ({
  page,
}) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/chat");
  const list = page.getByRole("region", { name: "Chat sessions" });
  const first = list.getByRole("listitem").first().getByRole("button");
  await expect(first).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await first.click();
  const conversation = page.getByRole("region", { name: /^Chat with / });
  await expect(conversation).toBeVisible();
  await expect(list).toBeHidden();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/chat-phone.png", fullPage: true });
  await page.getByRole("button", { name: "All sessions" }).click();
  await expect(list).toBeVisible();
  await expect(conversation).toBeHidden();
});
