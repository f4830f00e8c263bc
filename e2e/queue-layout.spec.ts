import { expect, type Page, test } from "@playwright/test";
import { register, sessionToken } from "./support.ts";

/**
 * The ticket queue at the commonest laptop width and on a phone (issue 29, item 2): at 1280 px the subject gets at
 * least half of every row and no cell's content runs into another's; at 390 px each ticket is a card and nothing
 * scrolls sideways.
 */

/** A queue that fills every column: long and short subjects and names, every priority, one ticket assigned. */
async function fillQueue(page: Page) {
  const token = await sessionToken(page);
  const headers = { Authorization: `Bearer ${token}` };
  const me = (await (await page.request.get("/api/auth/me", { headers })).json()) as { user: { id: string } };
  const tickets = [
    { subject: "Can I change my delivery address?", priority: "low", requester_name: "Li Wei" },
    {
      subject: `${"Wrong size helmet arrived and the return label in the box does not scan at the post office ".repeat(2)}end`,
      priority: "urgent",
      requester_name: "Maximiliana Alexandrina Konstantinopoulou-Vanderbilt-Featherstonehaugh",
    },
    { subject: "Refund", priority: "high", requester_name: "Rosa Diaz" },
    { subject: "Is the weekend e-bike rental available in March?", priority: "normal", requester_name: "Sam Okoro" },
  ];
  for (const [i, t] of tickets.entries()) {
    const answer = await page.request.post("/api/tickets", {
      headers,
      data: {
        ...t,
        description: "From the queue layout check.",
        requester_email: `customer-${i}@a-rather-long-company-domain-name.example.com`,
        tags: [],
      },
    });
    expect(answer.status()).toBe(201);
    if (i === 1) {
      const id = (await answer.json()).ticket.id as string;
      const put = await page.request.put(`/api/tickets/${id}`, { headers, data: { assignee_id: me.user.id } });
      expect(put.status()).toBe(200);
    }
  }
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Per row: the row's box, and for each shown cell the box around the cell and everything drawn inside it. */
function measureRows(page: Page) {
  return page.getByRole("table", { name: "Tickets" }).evaluate((table) => {
    const box = (r: DOMRect): Box => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
    return [...table.querySelectorAll("tbody tr")].map((row) => {
      const cells = [...row.querySelectorAll(":scope > td")]
        .filter((td) => getComputedStyle(td).display !== "none")
        .map((td) => {
          const outer = box(td.getBoundingClientRect());
          for (const el of td.querySelectorAll("*")) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 || r.height === 0 || getComputedStyle(el).display === "none") continue;
            outer.left = Math.min(outer.left, r.left);
            outer.right = Math.max(outer.right, r.right);
            outer.top = Math.min(outer.top, r.top);
            outer.bottom = Math.max(outer.bottom, r.bottom);
          }
          return outer;
        });
      return { row: box(row.getBoundingClientRect()), display: getComputedStyle(row).display, cells };
    });
  });
}

const overlaps = (a: Box, b: Box) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

test("at 1280 px the subject has at least half of each row and no two cells overlap", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page);
  await fillQueue(page);
  await page.goto("/tickets");
  await expect(page.getByText("Showing 1 to 4 of 4 results")).toBeVisible();

  await page.screenshot({ path: "test-results/queue-1280.png", fullPage: true });
  const rows = await measureRows(page);
  expect(rows).toHaveLength(4);
  for (const [i, { row, display, cells }] of rows.entries()) {
    expect(display, `row ${i}`).toBe("table-row");
    const subject = cells[0];
    if (!subject) throw new Error(`row ${i} has no cells`);
    expect(subject.right - subject.left, `row ${i}: the subject's width`).toBeGreaterThanOrEqual(
      (row.right - row.left) / 2,
    );
    for (const [a, first] of cells.entries())
      for (const [b, second] of cells.entries())
        if (a < b) expect(overlaps(first, second), `row ${i}: cells ${a} and ${b} overlap`).toBe(false);
    // Nothing spills out of the row either.
    for (const cell of cells) expect(cell.right, `row ${i}`).toBeLessThanOrEqual(row.right + 0.5);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test("at 390 px the queue is a list of cards with nothing scrolling sideways", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await register(page);
  await fillQueue(page);
  await page.goto("/tickets");
  await expect(page.getByText("Showing 1 to 4 of 4 results")).toBeVisible();

  // No column headers; each row is a card of its own, one under the other, as wide as the list.
  await expect(page.getByRole("columnheader", { name: "Ticket" })).toBeHidden();
  await page.screenshot({ path: "test-results/queue-390.png", fullPage: true });
  const rows = await measureRows(page);
  expect(rows).toHaveLength(4);
  let previousBottom = Number.NEGATIVE_INFINITY;
  for (const [i, { row, display, cells }] of rows.entries()) {
    expect(display, `row ${i}`).toBe("grid");
    expect(row.top, `row ${i} starts below the one before`).toBeGreaterThanOrEqual(previousBottom);
    previousBottom = row.bottom;
    expect(row.left).toBeGreaterThanOrEqual(0);
    expect(row.right).toBeLessThanOrEqual(390);
    for (const [a, first] of cells.entries())
      for (const [b, second] of cells.entries())
        if (a < b) expect(overlaps(first, second), `card ${i}: cells ${a} and ${b} overlap`).toBe(false);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
