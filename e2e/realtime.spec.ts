import { type Browser, expect, type Page, test } from "@playwright/test";
import { DEMO, signIn } from "./support.ts";

/**
 * Two teammates in two browsers (Dana, the demo admin, and Priya, an agent of the demo organization): what one does
 * reaches the other within a second or so, with no reload and no polling.
 */
const PRIYA = { email: "priya@cove.example", password: DEMO.password };

async function signedIn(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, who.email, who.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

async function newTicket(page: Page, subject: string): Promise<string> {
  await page.goto("/tickets/new");
  await page.getByLabel("Requester Name").fill("Rosa Diaz");
  await page.getByLabel("Requester Email").fill("rosa@example.com");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Description").fill("The tent pole snapped on the first night.");
  await page.getByRole("button", { name: "Create Ticket" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  return page.url();
}

test("a teammate's changes, assignments and presence arrive live in another browser", async ({ browser }) => {
  const dana = await signedIn(browser, DEMO);
  const priya = await signedIn(browser, PRIYA);

  // Priya watches the list; Dana creates a ticket: it appears on Priya's screen without a reload.
  const subject = `Tent pole snapped ${Date.now().toString(36)}`;
  await priya.goto("/tickets");
  await expect(priya.getByRole("table")).toBeVisible();
  const url = await newTicket(dana, subject);
  await expect(priya.getByRole("link", { name: new RegExp(subject) })).toBeVisible({ timeout: 5_000 });

  // Both on the ticket: each sees the other; Priya starts a reply and Dana sees it.
  await priya.goto(url);
  const danaViewers = dana.getByRole("list", { name: "Also viewing" });
  await expect(danaViewers.getByText("Priya Nair")).toBeAttached({ timeout: 5_000 });
  await expect(priya.getByRole("list", { name: "Also viewing" }).getByText("Dana Whitfield")).toBeAttached();
  await priya.getByRole("button", { name: "Reply" }).click();
  await priya.getByRole("textbox", { name: "Reply" }).pressSequentially("Checking the warehouse");
  await expect(dana.getByText("Priya is replying…")).toBeVisible({ timeout: 5_000 });

  // Dana changes the status and assigns the ticket to Priya: Priya's screen and bell follow.
  await dana.getByLabel("Status").selectOption("pending");
  await expect(priya.getByLabel("Status")).toHaveValue("pending", { timeout: 5_000 });
  await dana.getByLabel("Assignee").selectOption({ label: "Priya Nair" });
  const bell = priya.getByRole("button", { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible({ timeout: 5_000 });
  await bell.click();
  const panel = priya.getByRole("region", { name: "Notifications" });
  await expect(panel.getByText("assigned you").first()).toBeVisible();
  await panel
    .getByRole("link", { name: new RegExp(subject) })
    .first()
    .click();
  await expect(priya).toHaveURL(url);

  // Priya leaves: Dana's screen forgets her within seconds.
  await priya.context().close();
  await expect(danaViewers).toHaveCount(0, { timeout: 15_000 });
  await dana.context().close();
});

test("a reply from a teammate shows in the open ticket and the bell of its assignee", async ({ browser }) => {
  const dana = await signedIn(browser, DEMO);
  const priya = await signedIn(browser, PRIYA);
  const url = await newTicket(dana, `Missing stove fuel ${Date.now().toString(36)}`);
  await dana.getByLabel("Assignee").selectOption({ label: "Dana Whitfield (you)" });
  await priya.goto(url);
  await priya.getByRole("button", { name: "Reply" }).click();
  await priya.getByLabel("Public reply").uncheck();
  await priya.getByRole("textbox", { name: "Reply" }).fill("@Dana Whitfield the fuel ships separately");
  await priya.getByRole("button", { name: "Send Reply" }).click();
  await expect(dana.getByText("@Dana Whitfield the fuel ships separately")).toBeVisible({ timeout: 5_000 });
  await dana.getByRole("button", { name: /^Notifications, \d+ unread$/ }).click();
  await expect(dana.getByRole("region", { name: "Notifications" }).getByText("mentioned you on").first()).toBeVisible();
  await dana.context().close();
  await priya.context().close();
});
