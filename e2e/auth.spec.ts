import { expect, test } from "@playwright/test";
import { DEMO, mailTo, newAccount, register, signIn, signOut } from "./support.ts";

test("a new company starts a trial, keeps its session across reloads, and signs out", async ({ page }) => {
  // Nothing on these pages trips the Content-Security-Policy (zod's eval probe did, on every page: it is jitless now).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  const account = await register(page);
  expect(await violations()).toEqual([]);
  await expect(page.getByText("Your free trial expires in 14 days")).toBeVisible();
  await expect(
    page.getByRole("banner").getByText(`${account.firstName} ${account.lastName}`, { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(account.company).first()).toBeVisible();

  // The dashboard's getting-started checklist can be put away, and stays away.
  const firstSteps = page.getByRole("region", { name: "Getting started" });
  await expect(firstSteps).toContainText("0 of 5 done");
  await firstSteps.getByRole("button", { name: "Dismiss" }).click();
  await expect(firstSteps).toHaveCount(0);

  const asked = page.waitForResponse((r) => r.url().endsWith("/api/onboarding") && r.request().method() === "GET");
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Your free trial expires in 14 days")).toBeVisible();
  expect(((await (await asked).json()) as { dismissed: boolean }).dismissed).toBe(true);
  await expect(firstSteps).toHaveCount(0);
  expect(await violations()).toEqual([]);

  await page.goto("/login");
  await expect(page).toHaveURL(/\/dashboard$/);

  await signOut(page);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});

test("registration checks the passwords before calling the server", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm password", { exact: true }).fill("different");
  await page.getByRole("button", { name: "Start free trial" }).click();
  await expect(page.getByText("Password must be at least 8 characters long")).toBeVisible();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test("an email that already has an account is refused with a clear message", async ({ page }) => {
  const account = await register(page);
  await signOut(page);
  await page.goto("/register");
  await page.getByLabel("Company name").fill("Another Company");
  await page.getByLabel("First name").fill("Sam");
  await page.getByLabel("Last name").fill("Lee");
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill("another password");
  await page.getByLabel("Confirm password", { exact: true }).fill("another password");
  await page.getByRole("button", { name: "Start free trial" }).click();
  await expect(page.getByText("An account with this email already exists").first()).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test("the demo team signs in, and a wrong password says so", async ({ page }) => {
  await signIn(page, DEMO.email, "not the password");
  await expect(page.getByText("Invalid email or password").first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Acme Outdoor Co.").first()).toBeVisible();
});

test("a protected page sends a guest to sign in, then back to where they were going", async ({ page }) => {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Email").fill(DEMO.email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings$/);
});

test("a forgotten password is reset through the emailed link, once", async ({ page }) => {
  const account = await register(page, newAccount());
  await signOut(page);

  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: /send/i }).click();
  await expect(page.getByText(/If an account exists for that email/).first()).toBeVisible();

  const link = /http:\/\/localhost:\d+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(await mailTo(account.email))?.[0];
  expect(link).toBeTruthy();
  await page.goto(link ?? "");
  await page.getByLabel("New password", { exact: true }).fill("a whole new secret");
  await page.getByLabel("Confirm new password", { exact: true }).fill("a whole new secret");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, account.email, "a whole new secret");
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);

  // A used link says so as the page opens, with no form to fill first.
  await page.goto(link ?? "");
  await expect(page.getByText(/invalid or has expired/).first()).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
});

test("a user edits their profile and the top bar follows, across reloads", async ({ page }) => {
  const account = await register(page);
  const banner = page.getByRole("banner");
  await banner.getByRole("link", { name: new RegExp(`${account.firstName} ${account.lastName}`) }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const names = page.getByRole("form", { name: "Your name" });
  await names.getByLabel("First name").fill("Amara");
  await names.getByRole("button", { name: "Save changes" }).click();
  await expect(banner.getByText(`Amara ${account.lastName}`, { exact: true })).toBeVisible();
  await page.reload();
  await expect(banner.getByText(`Amara ${account.lastName}`, { exact: true })).toBeVisible();
});
