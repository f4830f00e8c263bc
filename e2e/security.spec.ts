import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { generate } from "otplib";
import { register, sessionToken, signIn, signOut } from "./support.ts";

/** Issue 32 in a browser: two-factor sign-in, a customer's data on request, and the audit log that records them. */

test("an admin exports a customer's data, erases the customer, and finds both in an intact audit log", async ({
  page,
}) => {
  await register(page);
  const email = `ana-${Date.now().toString(36)}@example.com`;
  const created = await page.request.post("/api/tickets", {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: {
      subject: "Lamp arrived broken",
      description: "In pieces.",
      requester_name: "Ana Ruiz",
      requester_email: email,
    },
  });
  expect(created.status()).toBe(201);

  await page.goto("/contacts");
  await page.getByRole("link", { name: /Ana Ruiz/ }).click();
  await page.getByRole("button", { name: "Export data" }).click();
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: /^Download/ }).click({ timeout: 30_000 });
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^cove-customer-export-.+\.zip$/);
  const zip = readFileSync((await download.path()) as string);
  expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");

  await page.getByRole("button", { name: "Erase customer" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("button", { name: "Erase forever" })).toBeDisabled();
  await dialog.getByLabel("Customer's email").fill(email.toUpperCase());
  await dialog.getByRole("button", { name: "Erase forever" }).click();
  await expect(page.getByText("The customer was erased.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Deleted customer" })).toBeVisible();

  await page.goto("/settings?tab=audit");
  await expect(page.getByRole("cell", { name: "Erased a customer" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Started a customer's data export" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "Downloaded a customer's data export" })).toBeVisible();
  await page.getByRole("button", { name: "Verify integrity" }).click();
  await expect(page.getByText(/The audit log is intact: \d+ entr(y|ies) checked\./)).toBeVisible();
  // The erased customer is named nowhere in the log.
  await expect(page.getByText(email)).toHaveCount(0);
});

/** A code of the time step `steps` from now, as an authenticator app shows it. */
const totp = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/**
 * Waits, when the current 30-second time step ends within the next 6 seconds, until the next one has begun: a code of
 * the step before is accepted only while the server is still in the step it was made in, and a new step between
 * making the code and the server's check made the journey fail now and then (seen once in CI, under load).
 */
async function clearOfStepEnd(page: Page) {
  const intoStep = (Date.now() / 1000) % 30;
  if (intoStep > 24) await page.waitForTimeout((30 - intoStep + 0.5) * 1000);
}

test("a member turns on two-factor sign-in, then signs in with a code and once with a recovery code", async ({
  page,
}) => {
  const account = await register(page);
  await page.goto("/profile");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  const secret = ((await page.locator("code").first().textContent()) ?? "").replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await clearOfStepEnd(page);
  await page.getByLabel("Code from your app").fill(await totp(secret, -1));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  const codes = page.getByRole("region", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = ((await codes.first().textContent()) ?? "").trim();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText("On.", { exact: true })).toBeVisible();

  await signOut(page);
  await signIn(page, account.email, account.password);
  await page.getByLabel("Authentication code").fill(await totp(secret, 0));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOut(page);
  await signIn(page, account.email, account.password);
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recovery);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Used once: the same recovery code does not sign in again.
  await signOut(page);
  await signIn(page, account.email, account.password);
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recovery);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});
