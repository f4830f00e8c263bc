import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { expectToastClear, register, sessionToken } from "./support.ts";

/** Every dialog (alert, prompt, confirm) the page opens: a script from typed text would show up here. */
function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  return dialogs;
}

async function createTicket(page: Page, subject: string, description: string) {
  await page.goto("/tickets");
  await page.getByRole("link", { name: "New Ticket" }).first().click();
  await expect(page).toHaveURL(/\/tickets\/new$/);
  await page.getByLabel("Requester Name").fill("Rosa Diaz");
  await page.getByLabel("Requester Email").fill("rosa.diaz@example.com");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Description").fill(description);
  await expect(page.getByLabel("Priority")).toHaveValue("normal");
  await page.getByRole("button", { name: "Create Ticket" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
}

async function reply(page: Page, text: string, options: { internal?: boolean } = {}) {
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  const form = page.getByRole("form", { name: "Send a reply" });
  await expect(form.getByLabel("Public reply")).toBeChecked();
  await form.getByRole("textbox", { name: "Reply" }).fill(text);
  if (options.internal) await form.getByLabel("Public reply").uncheck();
  // Its label on one line, not squeezed by the upload limits' hint beside it.
  const send = form.getByRole("button", { name: "Send Reply" });
  const lines = await send.evaluate((button) => {
    const label = document.createRange();
    label.selectNodeContents(button);
    return new Set([...label.getClientRects()].map((line) => Math.round(line.top))).size;
  });
  expect(lines).toBe(1);
  await send.click();
  await expect(form).toBeHidden();
}

test("an agent creates a ticket, finds it, replies, triages it and follows the dashboard to it", async ({ page }) => {
  const dialogs = recordDialogs(page);
  const account = await register(page);
  const agentName = `${account.firstName} ${account.lastName}`;
  const word = `tandem${Date.now().toString(36)}`;
  const subject = `Broken ${word} chain`;

  await createTicket(page, subject, "The chain snapped on the first ride.\nPlease send a replacement.");
  const description = page.getByRole("article", { name: "Description" });
  await expect(description).toContainText("Rosa Diaz");
  await expect(description).toContainText("rosa.diaz@example.com");

  // Find it by searching for a word of its subject.
  await page.getByRole("link", { name: "Back to List" }).click();
  await page.getByLabel("Search").fill(word);
  await expect(page).toHaveURL(new RegExp(`search=${word}`));
  await expect(page.getByText("Showing 1 to 1 of 1 results")).toBeVisible();
  await page.getByRole("link", { name: subject }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
  // Back to List returns to the search it came from.
  await page.getByRole("link", { name: "Back to List" }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets\\?search=${word}$`));
  await expect(page.getByLabel("Search")).toHaveValue(word);
  await page.getByRole("link", { name: subject }).click();

  // A public reply, then an internal note with its badge.
  await reply(page, "Sorry about that!\nA new chain is on its way.");
  const publicReply = page.getByRole("article", { name: `Reply from ${agentName}` });
  await expect(publicReply).toContainText("A new chain is on its way.");
  await expect(publicReply.getByText("Internal", { exact: true })).toHaveCount(0);
  await reply(page, "Check stock of the KMC X9 first.", { internal: true });
  const note = page.getByRole("article", { name: `Internal note from ${agentName}` });
  await expect(note.getByText("Internal", { exact: true })).toBeVisible();
  await expect(note).toContainText("Check stock of the KMC X9 first.");

  // Status and priority save as soon as they change; the timeline says who did it.
  await page.getByLabel("Status").selectOption("pending");
  await expect(page.getByText(`${agentName} changed status from Open to Pending`)).toBeVisible();
  await page.getByLabel("Priority").selectOption("urgent");
  await expect(page.getByText(`${agentName} changed priority from Normal to Urgent`)).toBeVisible();

  await page.getByRole("button", { name: "Assign to me" }).click();
  await expect(page.getByText(`${agentName} assigned the ticket to ${agentName}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Assign to me" })).toBeHidden();

  // All of it was saved: a reload shows the same.
  await page.reload();
  await expect(page.getByLabel("Status")).toHaveValue("pending");
  await expect(page.getByLabel("Priority")).toHaveValue("urgent");
  await expect(page.getByLabel("Assignee")).toHaveValue(/[0-9a-f-]{36}/);
  await expect(page.getByLabel("Assignee").locator("option:checked")).toHaveText(`${agentName} (you)`);
  await expect(page.getByRole("article", { name: `Internal note from ${agentName}` })).toBeVisible();

  // The dashboard counts it, and its Urgent Tickets card opens the filtered list.
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Dashboard" }).click();
  const urgentCard = page.getByRole("link", { name: /Urgent Tickets/ });
  await expect(urgentCard).toContainText("1");
  await expect(page.getByRole("region", { name: "Recent Tickets" })).toContainText(subject);
  await urgentCard.click();
  await expect(page).toHaveURL(/\/tickets\?priority=urgent$/);
  await expect(page.getByLabel("Priority")).toHaveValue("urgent");
  await expect(page.getByRole("link", { name: subject })).toBeVisible();
  await expect(page.getByText("Showing 1 to 1 of 1 results")).toBeVisible();

  // Changing a filter keeps the others and the back button undoes it.
  await page.getByLabel("Status").selectOption("solved");
  await expect(page).toHaveURL(/\/tickets\?status=solved&priority=urgent$/);
  await expect(page.getByText("No tickets match these filters")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/tickets\?priority=urgent$/);
  await expect(page.getByRole("link", { name: subject })).toBeVisible();

  expect(dialogs).toEqual([]);
});

test("the list pages through 25 tickets at a time, and the address keeps the page", async ({ page }) => {
  await register(page);
  const token = await sessionToken(page);
  for (let i = 1; i <= 27; i++) {
    const answer = await page.request.post("/api/tickets", {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        subject: `Pager ticket ${String(i).padStart(2, "0")}`,
        description: "Made for paging.",
        priority: "low",
        requester_name: "Pat Page",
        requester_email: "pat@example.com",
        tags: [],
      },
    });
    expect(answer.status()).toBe(201);
  }

  await page.goto("/tickets");
  await expect(page.getByText("Showing 1 to 25 of 27 results")).toBeVisible();
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/tickets\?page=2$/);
  await expect(page.getByText("Showing 26 to 27 of 27 results")).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();

  // A shared link to page 2 opens page 2.
  await page.reload();
  await expect(page.getByText("Showing 26 to 27 of 27 results")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByText("Showing 1 to 25 of 27 results")).toBeVisible();
});

test("a comment made of XSS payloads shows as text and runs nothing", async ({ page }) => {
  const dialogs = recordDialogs(page);
  const file = fileURLToPath(new URL("../test-data/xss-payloads/xss-payload-list.txt", import.meta.url));
  const payloads = readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /<(img|svg|script|iframe|body)|onerror|onload|javascript:/i.test(line))
    .slice(0, 12);
  expect(payloads.length).toBeGreaterThan(5);
  const body = payloads.join("\n");

  await register(page);
  await createTicket(page, `<img src=x onerror=alert("subject")>`, `<script>alert("description")</script>`);
  await reply(page, body);

  const comment = page.getByRole("article", { name: /^Reply from/ });
  const text = comment.locator("p");
  await expect(text).toHaveText(body, { useInnerText: true });
  // Only text inside: no element was made from the payloads.
  await expect(text.locator("*")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`<img src=x onerror=alert("subject")>`);
  await expect(page.getByRole("article", { name: "Description" })).toContainText(
    `<script>alert("description")</script>`,
  );

  // The same after a reload, when it comes back from the server.
  await page.reload();
  await expect(page.getByRole("article", { name: /^Reply from/ }).locator("p")).toHaveText(body, {
    useInnerText: true,
  });
  await page.getByRole("article", { name: /^Reply from/ }).hover();
  await page.waitForTimeout(300);
  expect(dialogs).toEqual([]);
});

test("on a 375 px phone the list and a ticket fit the screen @phone", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await register(page);
  await createTicket(page, "A subject long enough to need wrapping on a small phone screen", "Short.");
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await expect(page.getByLabel("Status")).toBeVisible();

  await page.goto("/tickets");
  await expect(page.getByText("Showing 1 to 1 of 1 results")).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  // The filters fold behind a button, so the first ticket is on the first screen.
  await expect(page.getByLabel("Priority")).toBeHidden();
  const first = await page.getByRole("link", { name: /A subject long enough/ }).boundingBox();
  expect((first?.y ?? 9999) + (first?.height ?? 0)).toBeLessThanOrEqual(740);
  await page.getByRole("button", { name: "Filters" }).click();
  await page.getByLabel("Priority").selectOption("urgent");
  await expect(page).toHaveURL(/priority=urgent/);
  await expect(page.getByRole("button", { name: "Hide filters" })).toHaveAttribute("aria-expanded", "true");
  await page.goto("/tickets");
  await expect(page.getByText("Showing 1 to 1 of 1 results")).toBeVisible();
  await page.getByRole("link", { name: /A subject long enough/ }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);

  // A toast spans a phone's width: it sits below the ticket's first row ("Back to List", "Reply"), not over it.
  await page.route(/\/api\/tickets\/[0-9a-f-]{36}$/, (route) =>
    route.request().method() === "GET"
      ? route.fallback()
      : route.fulfill({ status: 500, json: { error: "Down for a moment" } }),
  );
  await page.getByLabel("Status").selectOption("pending");
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Failed to update ticket" });
  await expectToastClear(page, toast, [
    page.getByRole("link", { name: "Back to List" }),
    page.getByRole("button", { name: "Reply", exact: true }),
  ]);
  await page.screenshot({ path: "test-results/ticket-toast-375.png" });
});

test("at 1280x800 a long subject and requester are cut, and Assignee and Updated stay on screen", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page);
  const token = await sessionToken(page);
  const subject = `${"Our whole warehouse team cannot sign in since the update ".repeat(4)}end`;
  const answer = await page.request.post("/api/tickets", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      subject,
      description: "Long.",
      priority: "low",
      requester_name: "Maximiliana Alexandrina Konstantinopoulou-Vanderbilt-Featherstonehaugh",
      requester_email: "maximiliana.alexandrina.konstantinopoulou@a-very-long-company-domain-name.example.com",
      tags: [],
    },
  });
  expect(answer.status()).toBe(201);
  await page.goto("/tickets");
  await expect(page.getByText("Showing 1 to 1 of 1 results")).toBeVisible();
  const table = page.getByRole("table", { name: "Tickets" });
  for (const header of ["Assignee", "Updated"]) {
    const box = await table.getByRole("columnheader", { name: header }).boundingBox();
    expect(box, header).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), header).toBeLessThanOrEqual(1280);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  // The full subject is one hover away.
  await expect(table.getByRole("link", { name: subject })).toHaveAttribute("title", subject);
  await page.screenshot({ path: "test-results/tickets-1280.png" });
});
