import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { register } from "./support.ts";

/** The signed-in user's organization slug, as the app keeps it in localStorage. */
async function orgSlug(page: Page): Promise<string> {
  const slug = await page.evaluate(() => {
    const raw = localStorage.getItem("cove.session");
    return raw ? (JSON.parse(raw) as { user?: { organizationSlug?: string } }).user?.organizationSlug : undefined;
  });
  if (!slug) throw new Error("no organization slug in the stored session");
  return slug;
}

/** Every dialog (alert, prompt, confirm) the page opens: a script from an article would show up here. */
function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return dialogs;
}

async function writeArticle(page: Page, title: string, body: string, phrasing?: string) {
  await page.goto("/knowledge-base");
  await page.getByRole("link", { name: "New Article" }).click();
  await expect(page).toHaveURL(/\/knowledge-base\/new$/);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Body", { exact: true }).fill(body);
  if (phrasing) {
    await page.getByRole("button", { name: "Add a phrasing" }).click();
    await page.getByLabel("Alternative phrasing 1").fill(phrasing);
  }
}

test("an agent writes and publishes an article; a customer finds it in the help center and votes", async ({ page }) => {
  const dialogs = recordDialogs(page);
  await register(page);
  const slug = await orgSlug(page);
  const word = `kayak${Date.now().toString(36)}`;
  const title = `Storing your ${word} for winter`;

  // A new organization starts with an empty knowledge base.
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Knowledge Base" }).click();
  await expect(page.getByRole("heading", { name: "No articles yet" })).toBeVisible();

  await writeArticle(
    page,
    title,
    "## Before you store it\n\nRinse it with **fresh water** and dry it.",
    "Where do I keep my boat?",
  );
  // The live preview shows the Markdown rendered.
  await expect(
    page.getByRole("region", { name: "Preview" }).getByRole("heading", { name: "Before you store it" }),
  ).toBeVisible();
  // A category made right here is selected at once.
  await page.getByRole("button", { name: "New category" }).click();
  await page.getByLabel("New category name").fill("Boat Care");
  await page.getByRole("button", { name: "Add category" }).click();
  await expect(page.getByText('Category "Boat Care" created')).toBeVisible();
  await expect(page.getByLabel("Category").locator("option:checked")).toHaveText("Boat Care");
  await page.getByRole("button", { name: "Publish" }).click();

  // The reader view.
  await expect(page).toHaveURL(/\/knowledge-base\/[0-9a-f-]{36}$/);
  const article = page.getByRole("article", { name: title });
  await expect(article.getByRole("heading", { name: "Before you store it" })).toBeVisible();
  await expect(article.getByText("Published")).toBeVisible();
  await expect(article.getByText("Boat Care")).toBeVisible();

  // A customer (not signed in) searches the help center and finds it.
  const customer = await page.context().browser()?.newPage();
  if (!customer) throw new Error("no second page");
  await customer.goto(`/help/${slug}`);
  await expect(customer.getByRole("heading", { name: "How can we help?" })).toBeVisible();
  await expect(customer.getByRole("region", { name: "Boat Care" }).getByRole("link", { name: title })).toBeVisible();
  await customer.getByRole("searchbox").fill("where do I keep my boat");
  await expect(customer).toHaveURL(/\?q=where\+do\+I\+keep\+my\+boat$/);
  await expect(customer.getByRole("heading", { name: /1 result for/ })).toBeVisible();
  await customer.getByRole("link", { name: title }).click();
  await expect(customer).toHaveURL(new RegExp(`/help/${slug}/articles/storing-your-${word}-for-winter$`));
  await expect(customer.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(customer.getByText("fresh water")).toBeVisible();
  await customer.getByRole("button", { name: "Yes" }).click();
  await expect(customer.getByText("Thanks for your feedback!")).toBeVisible();
  await customer.close();

  // The staff list counts the view and the vote.
  await page.getByRole("link", { name: "Back to Knowledge Base" }).click();
  const row = page.getByRole("row", { name: new RegExp(title) });
  await page.reload();
  await expect(row).toContainText("1 of 1");
  await expect(row).toContainText("Published");
  expect(dialogs).toEqual([]);
});

test("a draft is not in the help center, until it is published", async ({ page }) => {
  await register(page);
  const slug = await orgSlug(page);
  const word = `paddle${Date.now().toString(36)}`;
  const title = `Choosing a ${word}`;

  await writeArticle(page, title, "Longer paddles for wider boats.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("Draft saved")).toBeVisible();
  await expect(page.getByRole("article", { name: title }).getByText("Draft")).toBeVisible();
  await expect(page.getByRole("link", { name: "View in help center" })).toHaveCount(0);

  await page.goto(`/help/${slug}?q=${word}`);
  await expect(page.getByRole("heading", { name: `No articles match “${word}”` })).toBeVisible();
  await page.goto(`/help/${slug}/articles/choosing-a-${word}`);
  await expect(page.getByRole("heading", { name: "Article not found" })).toBeVisible();

  // Published from the editor, it appears.
  await page.goto("/knowledge-base?status=draft");
  await page.getByRole("link", { name: title }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Article published")).toBeVisible();
  // The toast leaves the page's actions uncovered (it pauses while the pointer rests on it).
  const toast = await page.locator("[data-sonner-toast]").boundingBox();
  const link = await page.getByRole("link", { name: "View in help center" }).boundingBox();
  expect(toast && link && (toast.x + toast.width <= link.x || link.x + link.width <= toast.x)).toBe(true);
  await page.getByRole("link", { name: "View in help center" }).click();
  await expect(page).toHaveURL(new RegExp(`/help/${slug}/articles/choosing-a-${word}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
});

test("the demo help center answers the demo's quick questions", async ({ page }) => {
  await page.goto("/help/acme");
  await expect(page.getByRole("link", { name: "Acme Outdoor Co." })).toBeVisible();
  for (const [question, answer] of [
    ["How do I return an item?", "How do I return an item?"],
    ["Where is my order?", "Where is my order? Tracking your package"],
    ["How do I reset my password?", "How do I reset my password?"],
    ["Do you ship internationally?", "Do you ship internationally?"],
  ] as const) {
    await page.goto(`/help/acme?q=${encodeURIComponent(question)}`);
    await expect(page.getByRole("listitem").first().getByRole("link")).toHaveText(answer);
  }
});

test("an article made of XSS payloads renders inert, in the editor, the reader view and the help center", async ({
  page,
}) => {
  const dialogs = recordDialogs(page);
  const file = fileURLToPath(new URL("../test-data/xss-payloads/xss-payload-list.txt", import.meta.url));
  const payloads = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /<(img|svg|script|iframe|body)|onerror|onload|javascript:/i.test(line))
    .slice(0, 12);
  expect(payloads.length).toBeGreaterThan(5);
  const body = [
    ...payloads,
    "[click me](javascript:alert('link'))",
    "![pic](javascript:alert('img'))",
    "<javascript:alert('auto')>",
  ].join("\n\n");

  const inert = async (rendered: Locator) => {
    // The payloads are there, as text.
    await expect(rendered).toContainText("<svg onload=alert(1)>", { useInnerText: true });
    // ...and made no element that can run anything (the page around the body has icons of its own).
    const made = await rendered.evaluate((root) =>
      [...root.querySelectorAll("*")].map((el) => ({
        tag: el.tagName.toLowerCase(),
        handlers: el.getAttributeNames().filter((n) => n.startsWith("on")),
        address: el.getAttribute("href") ?? el.getAttribute("src") ?? "",
      })),
    );
    expect(made.map((m) => m.tag).filter((t) => !["p", "a", "img", "code", "em", "strong"].includes(t))).toEqual([]);
    expect(made.flatMap((m) => m.handlers)).toEqual([]);
    expect(made.filter((m) => /^\s*javascript:/i.test(m.address))).toEqual([]);
    await expect(rendered.locator("a", { hasText: "click me" })).toHaveCount(0);
  };

  await register(page);
  const slug = await orgSlug(page);
  const title = `Payloads ${Date.now().toString(36)}`;
  await writeArticle(page, title, body);
  await inert(page.getByRole("region", { name: "Preview" }).locator("[data-markdown]"));
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page).toHaveURL(/\/knowledge-base\/[0-9a-f-]{36}$/);

  await inert(page.locator("article [data-markdown]"));
  await page.goto(`/help/${slug}/articles/${title.toLowerCase().replace(" ", "-")}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await inert(page.locator("article [data-markdown]"));
  await page.locator("article").hover();
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test("on a 375 px phone the help center and its articles fit the screen @phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  await page.goto("/help/acme");
  await expect(page.getByRole("heading", { name: "How can we help?" })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.getByRole("link", { name: "Shipping options, costs and delivery times" }).click();
  await expect(page.getByRole("table")).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expect(page.getByRole("button", { name: "Yes" })).toBeVisible();
});
