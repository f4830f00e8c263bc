import { expect, test } from "@playwright/test";
import { register } from "./support.ts";

/** A 1x1 orange PNG. */
const LOGO = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==",
  "base64",
);

test("settings change the help center's logo and brand colour", async ({ page }) => {
  await register(page);
  await page.getByRole("link", { name: "Settings" }).first().click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("link", { name: "General", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: /Billing & Subscriptions/ })).toHaveAttribute("href", "/billing");

  const slug = `harbor-${Date.now().toString(36)}`;
  await page.getByLabel("Help center address").fill(slug);
  await page.getByLabel("Brand colour", { exact: true }).fill("#ff6600");
  await page.getByLabel("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: LOGO });
  await expect(page.getByRole("img", { name: "Your logo" })).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  await page.goto(`/help/${slug}`);
  const frame = page.locator("[data-brand-color]");
  await expect(frame).toHaveAttribute("data-brand-color", "#ff6600");
  const logo = page.getByRole("img", { name: /logo$/ });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  // The header is the organization's: its colour behind its logo and name.
  const header = page.getByTestId("help-center-header");
  expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(255, 102, 0)");
});

test("an admin creates an API key shown once, revokes it, and exports the organization's data", async ({ page }) => {
  await register(page);
  await page.goto("/settings?tab=integrations");
  await page.getByLabel("Key name").fill("Zapier");
  await page.getByLabel("Scope").selectOption("read_write");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = page.getByTestId("new-api-key");
  await expect(key).toHaveText(/^ck\.[A-Za-z0-9_-]{32}$/);
  const table = page.getByRole("region", { name: "Your API keys" });
  await expect(table).toContainText("Zapier");
  await expect(table).toContainText("Read and write");
  await table.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(table).toContainText("Revoked");

  await page.getByRole("link", { name: "General", exact: true }).click();
  await page.getByRole("button", { name: "Export data" }).click();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: /^Download/ }).click({ timeout: 20_000 });
  expect((await download).suggestedFilename()).toMatch(/^cove-export-.*\.zip$/);
});

test("email settings are kept", async ({ page }) => {
  await register(page);
  await page.goto("/settings?tab=email");
  await page.getByLabel("Sender name").fill("Harbor Support");
  await page.getByLabel("Reply-to address").fill("help@harbor.example");
  await page.getByLabel("Signature").fill("Thanks,\nHarbor Bikes");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Sender name")).toHaveValue("Harbor Support");
  await expect(page.getByLabel("Reply-to address")).toHaveValue("help@harbor.example");
});
