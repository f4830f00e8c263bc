import { expect, test } from "@playwright/test";
import { DEMO, signIn } from "./support.ts";

const NAV = [
  ["Dashboard", "/dashboard"],
  ["Reports", "/reports"],
  ["Tickets", "/tickets"],
  ["Live Chat", "/chat"],
  ["AI Assistant", "/ai-assistant"],
  ["Knowledge Base", "/knowledge-base"],
  ["Automation", "/automation"],
  ["Users", "/users"],
  ["Billing", "/billing"],
  ["Settings", "/settings"],
] as const;

test("the sidebar's ten items each open their screen", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const nav = page.getByRole("navigation").first();
  for (const [label, path] of NAV) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    // Each screen, built or still a placeholder, is headed by its section's name.
    await expect(page.getByRole("heading", { level: 1, name: label, exact: true })).toBeVisible();
  }
});

test("an unknown address shows a not-found page with a way back", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
  await page.getByRole("link", { name: /dashboard/i }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("on a phone the menu slides over and closes after choosing @phone", async ({ page }) => {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("button", { name: "Open menu" }).click();
  const menu = page.getByRole("dialog");
  await expect(menu).toBeVisible();
  await menu.getByRole("link", { name: "Tickets", exact: true }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  // Escape closes it and gives focus back to the button that opened it.
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
});
