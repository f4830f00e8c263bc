import { expect, type Page, test } from "@playwright/test";
import { DEMO, sessionToken, signIn } from "./support.ts";

async function ask(page: Page, question: string) {
  const box = page.getByRole("textbox", { name: "Your question" });
  await box.fill(question);
  await box.press("Enter");
}

test("the team teaches the assistant: a question it could not answer, attached to an article, is answered next time", async ({
  page,
}) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const word = `Zephyr${Date.now().toString(36)}`;
  const created = await page.request.post("/api/kb/articles", {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: {
      title: `${word} paddle board rentals`,
      body: "Our lake shop rents paddle boards from May to September, by the hour or by the day.",
      questions: [],
      status: "published",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const article = ((await created.json()) as { article: { id: string; slug: string } }).article;
  const question = "Could my cousin borrow an inflatable SUP next Saturday?";

  // A visitor asks on /ai-test: nothing says "borrow" or "SUP", so the assistant hands off.
  await page.goto("/ai-test");
  const conversation = page.getByRole("region", { name: "Conversation with the AI assistant" });
  await ask(page, question);
  await expect(conversation.getByText("Handed off to a person")).toBeVisible();

  // The admin sees it among the questions the assistant could not answer, and attaches it to the article.
  await page.goto("/ai-assistant");
  const list = page.getByRole("region", { name: "Questions the assistant could not answer" });
  const group = list.getByRole("listitem").filter({ hasText: question });
  await expect(group).toBeVisible();
  await expect(group).toContainText("Asked once");
  await group.getByRole("combobox", { name: "Article" }).selectOption({ label: `${word} paddle board rentals` });
  await group.getByRole("button", { name: "Attach to article" }).click();
  await expect(page.getByText(`Added to "${word} paddle board rentals" as example questions`)).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: question })).toHaveCount(0);

  // Asked again, the assistant answers from that article, links it, and takes a thumbs up.
  await page.goto("/ai-test");
  await ask(page, question);
  await expect(conversation).toContainText("Our lake shop rents paddle boards from May to September");
  await expect(conversation.getByText("Handed off to a person")).toHaveCount(0);
  await expect(conversation.getByRole("link", { name: "Read the full article" })).toHaveAttribute(
    "href",
    `/help/acme/articles/${article.slug}`,
  );
  await conversation.getByRole("button", { name: "Yes" }).click();
  await expect(conversation.getByText("Thanks for the feedback")).toBeVisible();
});
