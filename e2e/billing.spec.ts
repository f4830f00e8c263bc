import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { register, sessionToken } from "./support.ts";

/** Fills the test provider's card form (PAYMENT_PROVIDER=test, the default). */
async function fillCard(page: Page, number: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name on card").fill("Maya Okafor");
  await dialog.getByLabel("Card number").fill(number);
  await dialog.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await dialog.getByLabel("CVC").fill("123");
  await dialog.getByLabel("Address").fill("1 Harbour Road");
  await dialog.getByLabel("City").fill("Bristol");
  await dialog.getByLabel("Postal code").fill("BS1 4DJ");
  await dialog.getByLabel("Country").selectOption("GB");
}

test("an admin converts the trial from the banner with the test provider's success card", async ({ page }) => {
  await register(page);
  const banner = page.getByRole("region", { name: "Trial status" });
  await expect(banner).toContainText("Your free trial expires in 14 days");
  await banner.getByRole("button", { name: "Upgrade now" }).click();
  const dialog = page.getByRole("dialog", { name: "Upgrade to a paid plan" });
  await expect(dialog.getByLabel("Plan")).toHaveValue("starter");
  await expect(dialog).toContainText("$29/month");
  await fillCard(page, "4242 4242 4242 4242");
  await dialog.getByRole("button", { name: "Upgrade now" }).click();
  await expect(page.getByText("Successfully upgraded to paid plan!")).toBeVisible();
  await expect(dialog).toBeHidden();
  // The trial status is reloaded: no more trial banner.
  await expect(banner).toBeHidden();

  await page.getByRole("link", { name: "Billing" }).first().click();
  await expect(page).toHaveURL(/\/billing$/);
  const current = page.getByRole("region", { name: "Current plan" });
  await expect(current).toContainText("Starter");
  await expect(current.locator("[data-status=active]")).toHaveText("Active");
  await expect(current).toContainText("Visa ending in 4242");
  await expect(current).toContainText("Next billing date");
  await expect(page.getByRole("region", { name: "Invoices" })).toContainText("$29.00");
});

test("a declined card shows the card provider's decline message in the form", async ({ page }) => {
  await register(page);
  await page.goto("/billing");
  await page.getByRole("button", { name: /Choose Growth/ }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to Growth" });
  await expect(dialog).toBeVisible();
  await fillCard(page, "4000 0000 0000 0002");
  await dialog.getByRole("button", { name: "Subscribe" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Your card was declined.");
  // Still on trial: the plans are still offered.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("list", { name: "Plans" })).toBeVisible();
});

test("an admin subscribes, then cancels at the end of the period", async ({ page }) => {
  await register(page);
  await page.goto("/billing");
  await page.getByRole("button", { name: /Choose Business/ }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to Business" });
  await fillCard(page, "4242424242424242");
  await dialog.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Subscription created successfully!")).toBeVisible();
  const current = page.getByRole("region", { name: "Current plan" });
  await expect(current).toContainText("Business");

  await current.getByRole("button", { name: "Cancel Subscription" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to cancel your subscription?" });
  await confirm.getByRole("button", { name: "Cancel Subscription" }).click();
  await expect(page.getByText("Subscription will be cancelled at the end of the current period")).toBeVisible();
  await expect(current).toContainText("Cancels at period end");
  await expect(current).toContainText("Ends on");
  await expect(current.getByRole("button", { name: "Keep my subscription" })).toBeVisible();
});

test("a card that asks for confirmation subscribes once the confirmation step is completed", async ({ page }) => {
  await register(page);
  await page.goto("/billing");
  await page.getByRole("button", { name: /Choose Starter/ }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to Starter" });
  await fillCard(page, "4000 0025 0000 3155");
  await dialog.getByRole("button", { name: "Subscribe" }).click();
  await expect(dialog).toContainText("Confirm this payment");
  await dialog.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page.getByText("Subscription created successfully!")).toBeVisible();
  await expect(page.getByRole("region", { name: "Current plan" })).toContainText("Starter");
});

test("a failed 3-D Secure step, then a completed one, leaves one paid invoice and nothing unpaid", async ({ page }) => {
  await register(page);
  await page.goto("/billing");
  await page.getByRole("button", { name: /Choose Growth/ }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to Growth" });
  await fillCard(page, "4000 0025 0000 3155");
  await dialog.getByRole("button", { name: "Subscribe" }).click();
  await dialog.getByRole("button", { name: "Fail authentication" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(
    "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
  );
  // Said once: in the form, not in a toast as well.
  await expect(page.getByText("We are unable to authenticate your payment method.", { exact: false })).toHaveCount(1);

  await fillCard(page, "4000 0025 0000 3155");
  await dialog.getByRole("button", { name: "Subscribe" }).click();
  await dialog.getByRole("button", { name: "Complete authentication" }).click();
  await expect(page.getByText("Subscription created successfully!")).toBeVisible();
  const invoices = page.getByRole("region", { name: "Invoices" });
  await expect(invoices.getByRole("row")).toHaveCount(2);
  await expect(invoices).toContainText("Paid");
  await expect(invoices).toContainText("$59.00");
  await expect(invoices).not.toContainText("Unpaid");
  await page.reload();
  await expect(page.getByRole("region", { name: "Current plan" })).toContainText("Growth");
  await expect(invoices.getByRole("row")).toHaveCount(2);
  await expect(invoices).not.toContainText("Unpaid");
});

test("Billing under the test provider: no Stripe.js, no console errors, the trial's end, plan buttons in line", async ({
  page,
}) => {
  const errors: string[] = [];
  const stripe: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("request", (request) => {
    if (request.url().includes("stripe.com")) stripe.push(request.url());
  });
  await register(page);
  await page.goto("/billing");
  await expect(page.getByText(/Your free trial ends on .+ \(in 14 days\)\./)).toBeVisible();
  const buttons = page.getByRole("list", { name: "Plans" }).getByText(/^Choose /);
  await expect(buttons).toHaveCount(3);
  const tops = await Promise.all([0, 1, 2].map(async (i) => (await buttons.nth(i).boundingBox())?.y));
  expect(new Set(tops).size, `the buttons' tops: ${tops.join(", ")}`).toBe(1);

  await page.getByRole("button", { name: /Choose Starter/ }).click();
  await expect(page.getByRole("dialog").getByLabel("Card number")).toBeVisible();
  expect(stripe).toEqual([]);
  expect(errors).toEqual([]);
});

test("an admin changes plan after a confirmation that says what happens to the money, and downloads the invoice as a PDF", async ({
  page,
}) => {
  await register(page);
  await page.goto("/billing");
  await page.getByRole("button", { name: /Choose Starter/ }).click();
  const dialog = page.getByRole("dialog", { name: "Subscribe to Starter" });
  await fillCard(page, "4242 4242 4242 4242");
  await dialog.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Subscription created successfully!")).toBeVisible();

  // Who the invoices are addressed to.
  const details = page.getByRole("region", { name: "Billing details" });
  await expect(details.getByLabel("Billing name")).toHaveValue(/Harbor Bikes/);
  await expect(details.getByLabel("Postal code")).toHaveValue("BS1 4DJ");
  await details.getByLabel("Billing name").fill("Harbor Bikes Ltd");
  await details.getByLabel("Tax ID").fill("GB987654321");
  await details.getByRole("button", { name: "Save billing details" }).click();
  await expect(page.getByText("Billing details saved.")).toBeVisible();

  const current = page.getByRole("region", { name: "Current plan" });
  await current.getByLabel("Change plan").selectOption("business");
  await current.getByRole("button", { name: "Change plan" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Change to the Business plan?" });
  await expect(confirm).toContainText("Nothing is charged today.");
  await expect(confirm).toContainText("you pay the difference between Starter and Business: about $");
  await expect(confirm).toContainText("From then on, Business is $99/month.");
  await confirm.getByRole("button", { name: "Change plan" }).click();
  await expect(page.getByText("Your organization is now on the Business plan.")).toBeVisible();
  await expect(current).toContainText("Business");

  const invoices = page.getByRole("region", { name: "Invoices" });
  const downloading = page.waitForEvent("download");
  await invoices.getByRole("button", { name: /^Download invoice TEST-.+ as PDF$/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^invoice-TEST-[A-Z0-9]+-0001\.pdf$/);
  const file = await download.path();
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
});

test("an expired trial cannot create a ticket and is told why", async ({ page }) => {
  await register(page);
  const token = await sessionToken(page);
  // The test provider's clock: this organization's trial moves 15 days on.
  const moved = await page.request.post("/api/test-provider/clock/advance", {
    headers: { Authorization: `Bearer ${token}` },
    data: { days: 15 },
  });
  expect(moved.ok()).toBe(true);

  await page.reload();
  const banner = page.getByRole("region", { name: "Trial status" });
  await expect(banner).toContainText("Your free trial has expired");
  await expect(banner).toContainText("read-only");

  await page.goto("/tickets/new");
  await expect(page.getByRole("status").filter({ hasText: "Your free trial has ended" })).toBeVisible();
  await page.getByLabel("Requester Name").fill("Rosa Diaz");
  await page.getByLabel("Requester Email").fill("rosa.diaz@example.com");
  await page.getByLabel("Subject").fill("Where is my order?");
  await page.getByLabel("Description").fill("It has been a week.");
  await page.getByRole("button", { name: "Create Ticket" }).click();
  await expect(
    page.getByText(
      "Failed to create ticket: Your free trial has ended, so your organization is read-only: you can still sign in, read and export your data. An admin can subscribe on the Billing page to make changes again.",
    ),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/tickets\/new$/);
  // Reads still work.
  await page.goto("/tickets");
  await expect(page.getByRole("heading", { name: "Tickets", exact: true })).toBeVisible();
});
