import { readFileSync } from "node:fs";
import { TICKET_CSV_COLUMNS } from "@cove/contract/reports.ts";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { DEMO, expectToastClear, signIn } from "./support.ts";

/**
 * The Reports screen against the real API (issue 31, "Proof"): the demo team opens /reports from the sidebar,
 * changes the range and a filter (the address follows, so the link reproduces the view), reads a section as a
 * table, and downloads that section's CSV (the same table) and the per-ticket CSV. On a laptop and on a 375 px phone,
 * where nothing but the tables scrolls sideways.
 */

/** A CSV file's rows (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The header and body rows of a table on screen, as text. */
async function tableText(table: Locator): Promise<string[][]> {
  return table.evaluate((t) =>
    [...t.querySelectorAll("tr")].map((tr) => [...tr.children].map((cell) => (cell.textContent ?? "").trim())),
  );
}

/** Clicks a download button and returns the downloaded file's name and text. */
async function download(page: Page, button: Locator): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: readFileSync(path, "utf8") };
}

async function journey(page: Page, shot: string) {
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const phone = (page.viewportSize()?.width ?? 1280) < 640;
  if (phone) await page.getByRole("button", { name: "Open menu" }).click();
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Reports", exact: true })
    .last()
    .click();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Volume", exact: true })).toBeVisible({ timeout: 15_000 });

  // The range, then a filter: each asks the API again and lands in the address.
  const asked = page.waitForResponse((r) => r.url().includes("/api/reports?") && r.url().includes("from="));
  await page.getByLabel("Date range", { exact: true }).selectOption({ label: "Last 90 days" });
  expect((await asked).status()).toBe(200);
  await expect(page).toHaveURL(/\/reports\?range=last_90_days$/);
  const filtered = page.waitForResponse((r) => r.url().includes("/api/reports?") && r.url().includes("channel=email"));
  await page.getByLabel("Channel", { exact: true }).selectOption({ label: "Email" });
  expect((await filtered).status()).toBe(200);
  await expect(page).toHaveURL(/\/reports\?range=last_90_days&channel=email$/);

  const volume = page.getByRole("region", { name: "Volume", exact: true });
  await expect(volume).toBeVisible();
  await expect(volume.getByRole("img", { name: /Tickets created per day/ })).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.screenshot({ path: `test-results/${shot}`, fullPage: true });

  // The table view, and the section's CSV: the very same table.
  await volume.getByRole("button", { name: "Table view of Volume" }).click();
  const table = volume.getByRole("table", { name: /^Volume per day/ });
  await expect(table).toBeVisible();
  const shown = (await tableText(table)).filter((row) => row.length > 1);
  const csv = await download(page, volume.getByRole("button", { name: "Download CSV of Volume" }));
  expect(csv.name).toMatch(/\.csv$/);
  expect(parseCsv(csv.text).filter((row) => row.some((cell) => cell !== ""))).toEqual(shown);

  // The table scrolls inside its card; the page itself never scrolls sideways.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);

  // One row per ticket of the range, with the columns.
  const tickets = await download(page, page.getByRole("button", { name: "Download tickets (CSV)" }));
  expect(tickets.name).toMatch(/\.csv$/);
  const rows = parseCsv(tickets.text).filter((row) => row.some((cell) => cell !== ""));
  expect(rows[0]).toEqual([...TICKET_CSV_COLUMNS]);
  expect(rows.length).toBeGreaterThan(1);
  // Only email tickets, as the filter says.
  const channel = TICKET_CSV_COLUMNS.indexOf("channel");
  for (const row of rows.slice(1)) expect(row[channel]).toBe("email");
}

test("a team lead changes the range and a filter, reads a table and downloads the CSVs", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await journey(page, "reports-1280.png");

  // The agents' table fits its card at 1280 px: no sideways scroll, and a header one line high.
  const agents = page.getByRole("region", { name: "Agents", exact: true });
  await agents.getByRole("button", { name: "Table view of Agents" }).click();
  const table = agents.getByRole("table", { name: /^Agents/ });
  await expect(table).toBeVisible();
  const box = agents.getByRole("region", { name: /^Agents, / });
  expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const header = await table.locator("thead").boundingBox();
  expect(header?.height).toBeLessThan(40);
});

test("the reports screen works on a 375 px phone @phone", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 375, height: 740 });
  await journey(page, "reports-375.png");

  // A failed download's toast spans the width: it sits below the heading and the button, not over them.
  await page.route(/\/api\/reports\/tickets\.csv/, (route) =>
    route.fulfill({ status: 500, json: { error: "Down for a moment", code: "INTERNAL_ERROR" } }),
  );
  const button = page.getByRole("button", { name: "Download tickets (CSV)" });
  await button.click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "could not be downloaded" });
  await expectToastClear(page, toast, [page.getByRole("heading", { level: 1, name: "Reports" }), button]);
  await page.screenshot({ path: "test-results/reports-toast-375.png" });
});
