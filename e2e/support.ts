import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

export const DEMO = { email: "demo@cove.example", password: "cove-demo-2026" };

let n = 0;
export function newAccount() {
  const id = `${Date.now().toString(36)}${(n++).toString(36)}`;
  return {
    company: `Harbor Bikes ${id}`,
    firstName: "Maya",
    lastName: "Okafor",
    email: `maya-${id}@example.com`,
    password: "sea breeze 42",
  };
}

export async function register(page: Page, account = newAccount()) {
  await page.goto("/register");
  await page.getByLabel("Company name").fill(account.company);
  await page.getByLabel("First name").fill(account.firstName);
  await page.getByLabel("Last name").fill(account.lastName);
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Start free trial" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return account;
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs out from the top bar and waits for the sign-in page, so that the logout call has finished. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * The newest message to `to` in the server's outbox. Mail goes out from the job queue a moment after the request
 * that caused it, so this waits for it to appear.
 */
export async function mailTo(to: string): Promise<string> {
  const dir = path.join(process.env.COVE_E2E_DATA_DIR ?? "", "outbox");
  const find = () => {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
    } catch {
      return "";
    }
    const mails = files
      .sort()
      .map((f) => decodeMail(readFileSync(path.join(dir, f), "utf8")))
      .filter((m) => new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "mi").test(m));
    return mails.at(-1) ?? "";
  };
  await expect.poll(find, { timeout: 15_000, message: `a mail to ${to}` }).not.toBe("");
  return find();
}

/** The newest message in the server's mail outbox (no SMTP_URL is set for the browser journeys). */
export function latestMail(): string {
  const dir = path.join(process.env.COVE_E2E_DATA_DIR ?? "", "outbox");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".eml"))
    .sort();
  const last = files.at(-1);
  if (!last) throw new Error(`no mail in ${dir}`);
  return readFileSync(path.join(dir, last), "utf8")
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The session token the app keeps in localStorage, to set up data through the API the way the app calls it. */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const raw = localStorage.getItem("cove.session");
    return raw ? (JSON.parse(raw) as { token?: string }).token : undefined;
  });
  if (!token) throw new Error("no session token in localStorage");
  return token;
}

/**
 * A phone's toast spans the width: with the page scrolled to the top, it sits wholly above or below each of `rows` (a
 * page's heading and actions), never over a pixel of them. Polled: the toast moves when the rows are measured.
 */
export async function expectToastClear(page: Page, toast: Locator, rows: Locator[]): Promise<void> {
  await expect(toast).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect
    .poll(async () => {
      const t = await toast.boundingBox();
      const boxes = await Promise.all(rows.map((r) => r.boundingBox()));
      return boxes.map((a) => Boolean(t && a && (t.y >= a.y + a.height || a.y >= t.y + t.height)));
    })
    .toEqual(rows.map(() => true));
}
