import { expect, type Page, test } from "@playwright/test";
import { DEMO, register, sessionToken, signIn } from "./support.ts";

/** Publishes an article through the knowledge-base API (issue 6, part 1), as the editor's Publish button does. */
async function publishArticle(
  page: Page,
  article: { title: string; body: string; questions: string[] },
): Promise<{ id: string; slug: string }> {
  const res = await page.request.post("/api/kb/articles", {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: { ...article, status: "published" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { article: { id: string; slug: string } }).article;
}

function chat(page: Page, name: string) {
  return page.getByRole("region", { name });
}

async function ask(page: Page, question: string) {
  const box = page.getByRole("textbox", { name: "Your question" });
  await box.fill(question);
  await box.press("Enter");
}

test("/ai-test: a visitor gets replies with confidence and suggested actions, and a person on request", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByRole("banner").getByRole("link", { name: "AI Demo" }).click();
  await expect(page).toHaveURL(/\/ai-test$/);
  await expect(page.getByRole("heading", { level: 1, name: "Try the AI assistant" })).toBeVisible();
  await expect(page).toHaveTitle("Try the AI assistant · Cove");
  const conversation = chat(page, "Conversation with the AI assistant");
  await expect(conversation).toContainText("I'm the AI assistant of Acme Outdoor Co.");
  const quick = page.getByRole("group", { name: "Quick questions" });
  await expect(quick.getByRole("button")).toHaveText([
    "How do I return an item?",
    "Where is my order?",
    "How do I reset my password?",
    "Do you ship internationally?",
    "Can I talk to a person?",
  ]);

  // Nothing any help center answers: handed off, with the confidence and the next step shown.
  await ask(page, "What is the airspeed velocity of an unladen swallow?");
  await expect(conversation.getByText("What is the airspeed velocity of an unladen swallow?")).toBeVisible();
  await expect(conversation).toContainText("I couldn't find an answer to that in our help articles");
  await expect(conversation.getByText(/^Confidence: \d+% \(low\)$/)).toBeVisible();
  await expect(conversation.getByText("Suggested actions")).toBeVisible();
  await expect(conversation.getByRole("listitem").filter({ hasText: "Talk to a human" })).toHaveCount(1);

  await quick.getByRole("button", { name: "Can I talk to a person?" }).click();
  await expect(conversation).toContainText("Of course. I'll connect you with a person from our team.");
  await expect(conversation.getByText("Handed off to a person")).toHaveCount(2);
  await expect(conversation.getByText("Confidence: 100% (high)")).toBeVisible();
});

test("/ai-test answers from the demo organization's published article and links it in the help center", async ({
  page,
}) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const word = `Ridgeline${Date.now().toString(36)}`;
  const article = await publishArticle(page, {
    title: `Renting a ${word} canoe`,
    questions: [`Can I rent a ${word} canoe?`, `How much does the ${word} canoe rental cost?`],
    body: `${word} canoes are rented at our lake shop from May to September. Bring a photo ID and a deposit card.`,
  });

  // A visitor (the demo never uses the staff session, even in the same browser).
  await page.goto("/ai-test");
  await ask(page, `Can I rent a ${word} canoe?`);
  const conversation = chat(page, "Conversation with the AI assistant");
  await expect(conversation).toContainText(`${word} canoes are rented at our lake shop from May to September`);
  await expect(conversation.getByText(/^Confidence: \d+% \(high\)$/)).toBeVisible();
  await expect(conversation.getByText(`Read: Renting a ${word} canoe`)).toBeVisible();
  const source = conversation.getByRole("link", { name: `Renting a ${word} canoe` });
  await expect(source).toHaveAttribute("href", `/help/acme/articles/${article.slug}`);
});

test("the test console answers with the article it was given as the source, and hands off what it cannot answer", async ({
  page,
}) => {
  await register(page);
  const article = await publishArticle(page, {
    title: "Fixing a flat bike tire",
    questions: ["My bike has a flat tire", "How do I patch an inner tube?"],
    body: [
      "Most flats are fixed in ten minutes with the patch kit that came with your bike.",
      "",
      "## Patch the tube",
      "",
      "1. Take the wheel off and lever one side of the tire off the rim.",
      "2. Pump the tube and listen for the hiss to find the hole.",
      "3. Roughen the area, apply glue, wait one minute and press the patch on.",
    ].join("\n"),
  });

  await page.getByRole("navigation").getByRole("link", { name: "AI Assistant" }).first().click();
  await expect(page).toHaveURL(/\/ai-assistant$/);
  await expect(page.getByRole("heading", { level: 1, name: "AI Assistant" })).toBeVisible();
  const console = chat(page, "Test conversation with your assistant");
  await expect(console).toContainText("Hi! I'm the virtual assistant. How can I help you today?");

  await ask(page, "How do I patch an inner tube?");
  // The steps answer "how do I": the answer quotes them, not the article's opening sentence.
  await expect(console).toContainText("Pump the tube and listen for the hiss to find the hole.");
  await expect(console.getByText(/^Confidence: \d+% \(high\)$/)).toBeVisible();
  const source = console.getByRole("link", { name: "Fixing a flat bike tire" });
  await expect(source).toHaveAttribute("href", new RegExp(`/help/[^/]+/articles/${article.slug}$`));

  await ask(page, "Do you sell concert tickets?");
  await expect(console.getByText("Handed off to a person")).toBeVisible();
  await expect(console).toContainText("I couldn't find an answer to that in our help articles");

  // The admin raises the hand-off threshold to the maximum: now even the tire question goes to a person.
  const settings = page.getByRole("form", { name: "Settings" });
  await settings.getByRole("slider").fill("100");
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("AI assistant settings saved")).toBeVisible();
  await ask(page, "How do I patch an inner tube?");
  await expect(console.getByText("Handed off to a person")).toHaveCount(2);

  // Questions asked here are counted apart from customers'.
  await page.reload();
  await expect(page.getByRole("region", { name: "Resolution rate" })).toContainText(
    "Test console questions are not counted (3 questions",
  );
});

test("/ai-test ends at its footer however long the conversation grows", async ({ page }) => {
  await page.goto("/ai-test");
  const conversation = chat(page, "Conversation with the AI assistant");
  const quick = page.getByRole("group", { name: "Quick questions" });
  const questions = ["How do I return an item?", "Where is my order?", "Do you ship internationally?"];
  for (const [i, question] of questions.entries()) {
    await quick.getByRole("button", { name: question }).click();
    await expect(conversation.getByText(/^Confidence: /)).toHaveCount(i + 1);
  }
  // The chat scrolls inside its box: the page itself has nothing below the footer.
  const { pageEnd, footerEnd } = await page.evaluate(() => ({
    pageEnd: document.documentElement.scrollHeight,
    footerEnd: Math.ceil((document.querySelector("footer")?.getBoundingClientRect().bottom ?? 0) + window.scrollY),
  }));
  expect(pageEnd).toBeLessThanOrEqual(footerEnd);
});

test("@phone /ai-test fits a phone and still answers", async ({ page }) => {
  await page.goto("/ai-test");
  await ask(page, "Can I talk to a person?");
  const conversation = chat(page, "Conversation with the AI assistant");
  await expect(conversation).toContainText("Of course. I'll connect you with a person from our team.");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
  await page.screenshot({ path: "/tmp/cove-ai-test-phone.png", fullPage: true });
});
