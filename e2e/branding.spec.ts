import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { register } from "./support.ts";

/**
 * Issue 29, items 6 and 8: an organization's saved logo and colour lead its portal, its help center and its chat
 * widget, and the widget holds up on real shops: a theme that transforms <body>, a page that requires Trusted Types,
 * and no emoji font needed for its icons.
 */

/** A 1x1 orange PNG. */
const LOGO = `data:image/png;base64,${"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="}`;

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
const background = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);
const color = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).color);

/** A new team, its admin's token and its help center address. */
async function newTeam(page: Page) {
  await register(page);
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem("cove.session") ?? "{}") as { token?: string }).token ?? "",
  );
  const general = await page.request.get("/api/settings/general", { headers: { Authorization: `Bearer ${token}` } });
  const slug = ((await general.json()) as { slug: string }).slug;
  return { token, slug };
}

/** The admin saves the brand through the API, as Settings > General does. */
async function saveBrand(page: Page, token: string, body: { brand_color: string; logo?: string | null }) {
  const res = await page.request.put("/api/settings/general", {
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * A customer's website: a page on another origin (127.0.0.1 and its own port; Cove is on localhost) with a strict
 * policy of its own, its own stylesheet, and Cove's script tag without data-color.
 */
async function serveShop(
  cove: string,
  opts: { slug: string; css?: string; policy?: string },
): Promise<{ server: Server; url: string }> {
  const ws = cove.replace(/^http/, "ws");
  const server = createServer((req, res) => {
    if (req.url === "/shop.css") {
      res.writeHead(200, { "content-type": "text/css" });
      res.end(opts.css ?? "");
      return;
    }
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": [
        `default-src 'none'; script-src ${cove}; connect-src ${cove} ${ws}; style-src 'self'; img-src ${cove}`,
        ...(opts.policy ? [opts.policy] : []),
      ].join("; "),
    });
    res.end(`<!doctype html><html><head><title>Shop</title><link rel="stylesheet" href="/shop.css"></head>
      <body><h1>The shop</h1><p>Lamps and bulbs.</p>
      <script src="${cove}/widget.js" data-org="${opts.slug}" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

const servers: Server[] = [];
test.afterAll(() => {
  for (const server of servers) server.close();
});

/** Every emoji-like character: none of the widget's text may need an emoji font. */
const EMOJI = /\p{Extended_Pictographic}/u;
const widgetText = (page: Page) =>
  page.evaluate(() => document.getElementById("cove-chat-widget")?.shadowRoot?.textContent ?? "");

test("the portal and the help center lead with the saved logo and colour, in text that reads on it", async ({
  browser,
  page,
}) => {
  const { token, slug } = await newTeam(page);
  await saveBrand(page, token, { brand_color: "#0f766e", logo: LOGO });

  // A customer opens the portal: the header is the organization's colour, with its logo and white text.
  const customer = await (await browser.newContext()).newPage();
  await customer.goto(`/portal/${slug}`);
  const header = customer.getByTestId("portal-header");
  await expect(customer.getByRole("heading", { name: /^Sign in to .* support$/ })).toBeVisible({ timeout: 15_000 });
  expect(await background(header)).toBe(rgb("#0f766e"));
  expect(await color(header)).toBe(rgb("#ffffff"));
  const logo = header.locator("img");
  await expect(logo).toHaveAttribute("src", new RegExp(`^/api/public/${slug}/logo\\?v=`));
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  const signIn = customer.getByRole("button", { name: "Email me a sign-in link" });
  expect(await background(signIn)).toBe(rgb("#0f766e"));
  await customer.screenshot({ path: "test-results/portal-branded.png" });

  // The help center's header: the colour behind the logo and name.
  await customer.goto(`/help/${slug}`);
  const helpHeader = customer.getByTestId("help-center-header");
  await expect(helpHeader.getByRole("img", { name: /logo$/ })).toBeVisible({ timeout: 15_000 });
  expect(await background(helpHeader)).toBe(rgb("#0f766e"));
  expect(await color(helpHeader)).toBe(rgb("#ffffff"));
  await customer.screenshot({ path: "test-results/help-center-branded.png" });
  // Its not-found page's way back is in the colour too, not in Cove's.
  await customer.goto(`/help/${slug}/articles/no-such-article`);
  const back = customer.getByRole("link", { name: "Go to the help center" });
  await expect(back).toBeVisible({ timeout: 15_000 });
  expect(await background(back)).toBe(rgb("#0f766e"));
  expect(await color(back)).toBe(rgb("#ffffff"));

  // A light colour: its text turns black, on the portal and the help center alike.
  await saveBrand(page, token, { brand_color: "#fde047" });
  await customer.goto(`/portal/${slug}`);
  await expect(customer.getByRole("heading", { name: /^Sign in to .* support$/ })).toBeVisible({ timeout: 15_000 });
  expect(await background(header)).toBe(rgb("#fde047"));
  expect(await color(header)).toBe(rgb("#000000"));
  expect(await color(signIn)).toBe(rgb("#000000"));
  await customer.goto(`/help/${slug}`);
  await expect(helpHeader).toBeVisible({ timeout: 15_000 });
  expect(await background(helpHeader)).toBe(rgb("#fde047"));
  expect(await color(helpHeader)).toBe(rgb("#000000"));
});

test("the widget's launcher is in the brand colour before it is opened, stays fixed on a shop that transforms <body>, and draws SVG icons", async ({
  browser,
  page,
  baseURL,
}) => {
  const cove = baseURL ?? "http://localhost:3210";
  const { token, slug } = await newTeam(page);
  await saveBrand(page, token, { brand_color: "#be123c", logo: LOGO });
  // A theme that moves <body> with a transform (and makes the page long).
  const shop = await serveShop(cove, { slug, css: "body { transform: translateX(0); min-height: 400vh; }" });
  servers.push(shop.server);

  const visitor = await (await browser.newContext({ viewport: { width: 1024, height: 700 } })).newPage();
  const asked: string[] = [];
  visitor.on("request", (r) => {
    if (r.url().startsWith(cove)) asked.push(new URL(r.url()).pathname);
  });
  await visitor.goto(shop.url);
  const launcher = visitor.getByRole("button", { name: "Open chat" });
  await expect(launcher).toBeVisible();
  // The brand's colour from the start, not Cove's indigo until opened.
  await expect.poll(() => background(launcher)).toBe(rgb("#be123c"));
  expect(await color(launcher)).toBe(rgb("#ffffff"));
  // Nothing heavy before the first open: the script and its small look answer.
  expect(asked.sort()).toEqual([`/api/public/${slug}/chat/widget`, "/widget.js"]);

  // Fixed to the window's bottom right corner, at the top of the page and after scrolling down it.
  const inCorner = async () => {
    const box = await launcher.boundingBox();
    if (!box) throw new Error("the launcher has no box");
    return box.y + box.height <= 700 && box.y + box.height >= 700 - 40 && box.x + box.width >= 1024 - 40;
  };
  expect(await inCorner()).toBe(true);
  await visitor.mouse.wheel(0, 1500);
  await expect.poll(() => visitor.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  expect(await inCorner()).toBe(true);
  await visitor.screenshot({ path: "test-results/widget-launcher-transformed-body.png" });

  // Opened: the organization's logo and colour lead the panel; the icons are drawn, not emoji.
  await launcher.click();
  const panel = visitor.getByRole("dialog", { name: "Chat" });
  await expect(panel.getByRole("button", { name: "Start chat" })).toBeVisible();
  expect(await background(panel.getByRole("button", { name: "Start chat" }))).toBe(rgb("#be123c"));
  const panelLogo = panel.locator("img").first();
  await expect.poll(() => panelLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await panel.getByRole("button", { name: "Start chat" }).click();
  await expect(panel.getByRole("textbox", { name: "Message" })).toBeVisible();
  for (const control of [panel.getByRole("button", { name: "Close chat" }), panel.getByTitle("Attach a file")]) {
    await expect(control.locator("svg")).toHaveCount(1);
  }
  expect(await widgetText(visitor)).not.toMatch(EMOJI);
});

test("on a shop that requires Trusted Types, the widget shows the assistant's answer with no exception", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const cove = baseURL ?? "http://localhost:3210";
  const shop = await serveShop(cove, { slug: "acme", policy: "require-trusted-types-for 'script'" });
  servers.push(shop.server);
  const context = await browser.newContext();
  // The shop really enforces Trusted Types: an HTML string is refused there (checked in a tab of its own, whose
  // refusal is logged as an error).
  const probe = await context.newPage();
  await probe.goto(shop.url);
  const refused = await probe.evaluate(() => {
    try {
      document.createElement("div").innerHTML = "<b>x</b>";
      return false;
    } catch {
      return true;
    }
  });
  expect(refused).toBe(true);
  await probe.close();

  const visitor = await context.newPage();
  const problems: string[] = [];
  visitor.on("pageerror", (e) => problems.push(e.message));
  visitor.on("console", (m) => {
    if (m.type() === "error") problems.push(m.text());
  });
  await visitor.goto(shop.url);

  await visitor.getByRole("button", { name: "Open chat" }).click();
  const panel = visitor.getByRole("dialog", { name: "Chat" });
  await panel.getByRole("button", { name: "Start chat" }).click();
  const message = panel.getByRole("textbox", { name: "Message" });
  await message.fill("How long do refunds take?");
  await message.press("Enter");
  const answer = panel
    .getByRole("listitem")
    .filter({ hasText: "Assistant" })
    .filter({ hasText: /refund/i });
  await expect(answer.getByText(/refund within 3 business days/i)).toBeVisible({ timeout: 15_000 });
  // No error line: nothing went wrong while showing it.
  await expect(panel.getByRole("alert")).toBeHidden();
  const rating = answer.getByRole("group", { name: "Was this helpful?" });
  for (const name of ["Yes", "No"]) await expect(rating.getByRole("button", { name }).locator("svg")).toHaveCount(1);
  expect(await widgetText(visitor)).not.toMatch(EMOJI);
  expect(problems).toEqual([]);
  await visitor.screenshot({ path: "test-results/widget-trusted-types.png" });
});
