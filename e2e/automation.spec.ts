import { expect, type Page, test } from "@playwright/test";
import { register } from "./support.ts";

async function createTicket(page: Page, subject: string) {
  await page.goto("/tickets/new");
  await page.getByLabel("Requester Name").fill("Rosa Diaz");
  await page.getByLabel("Requester Email").fill("rosa.diaz@example.com");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Description").fill("It arrived broken.");
  await page.getByRole("button", { name: "Create Ticket" }).click();
  await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(subject);
}

const card = (page: Page, label: string) =>
  page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd");

test("an admin's rule runs on a matching ticket, is counted, and stops when paused", async ({ page }) => {
  test.setTimeout(90_000);
  await register(page);
  await page.getByRole("navigation").first().getByRole("link", { name: "Automation", exact: true }).click();
  await expect(page.getByRole("heading", { name: "No automation rules" })).toBeVisible();
  await expect(card(page, "Executions Today")).toHaveText("0");

  await page.getByRole("button", { name: "Create Rule" }).first().click();
  const form = page.getByRole("form", { name: "Create Rule" });
  await form.getByLabel("Rule name").fill("Refunds to billing");
  await form.getByRole("button", { name: "Add condition" }).click();
  await form.getByLabel("Condition 1 field").selectOption("ticket.subject");
  await form.getByLabel("Condition 1 operator").selectOption("contains");
  await form.getByLabel("Condition 1 value").fill("refund");
  await form.getByLabel("Action 1", { exact: true }).selectOption("change_priority");
  await form.getByLabel("Action 1 priority").selectOption("high");
  await form.getByRole("button", { name: "Add action" }).click();
  await form.getByLabel("Action 2", { exact: true }).selectOption("add_tags");
  await form.getByLabel("Action 2 tags").fill("billing");
  await form.getByRole("button", { name: "Create Rule" }).click();
  const rule = page.getByRole("listitem", { name: "Refunds to billing" });
  await expect(rule).toContainText('Subject contains "refund"');
  await expect(rule).toContainText("Add tags: billing");
  await expect(card(page, "Active Rules")).toHaveText("1");

  // A matching ticket: the rule's change is there when the ticket opens, under the rule's name.
  await createTicket(page, "Refund for a broken lamp");
  await expect(page.getByLabel("Priority")).toHaveValue("high");
  await expect(page.getByText("Refunds to billing changed priority from Normal to High")).toBeVisible();
  await expect(page.getByText("Refunds to billing set the tags to billing")).toBeVisible();

  await page.goto("/automation");
  await expect(card(page, "Executions Today")).toHaveText("1");
  await page.getByRole("button", { name: "Run log of Refunds to billing" }).click();
  await expect(page.getByRole("table", { name: "Run log" })).toContainText("change_priority: high; add_tags: billing");

  // Paused, it no longer runs.
  await page.getByRole("button", { name: "Pause Refunds to billing" }).click();
  await expect(rule).toContainText("Paused");
  await expect(card(page, "Active Rules")).toHaveText("0");
  await createTicket(page, "Refund for a second lamp");
  await expect(page.getByLabel("Priority")).toHaveValue("normal");
  await page.goto("/automation");
  await expect(card(page, "Executions Today")).toHaveText("1");
});
