import { gzipSync } from "node:zlib";
import { expect, type Page, test } from "@playwright/test";
import { DEMO, signIn } from "./support.ts";

const PAGES = [
  { path: "/", title: /help desk for small support teams/, heading: "Great support, without a big support team" },
  {
    path: "/homepage",
    title: /help desk for small support teams/,
    heading: "Great support, without a big support team",
  },
  { path: "/about", title: "About · Cove", heading: /teams that do support between everything else/ },
  { path: "/terms", title: "Terms of Service · Cove", heading: "Terms of Service" },
  { path: "/privacy", title: "Privacy Policy · Cove", heading: "Privacy Policy" },
  { path: "/demo", title: "Setup demo · Cove", heading: "See Cove set up in four minutes" },
  { path: "/chat-layout", title: "Chat layout test · Cove", heading: "Live chat layout" },
  { path: "/debug", title: "Debug log · Cove", heading: "Debug log" },
];

const PRIVACY_SECTIONS = [
  "Information We Collect",
  "How We Use Information",
  "Information Sharing",
  "Data Security",
  "Data Retention",
  "Your Rights",
  "Cookies & Tracking",
  "International Transfers",
  "Children's Privacy",
  "Policy Changes",
  "Contact Us",
];

function description(page: Page) {
  return page.locator('meta[name="description"]');
}

test("every public page renders its key content, with its own title and one description", async ({ page }) => {
  const descriptions = new Set<string>();
  for (const { path, title, heading } of PAGES) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page).toHaveTitle(title);
    await expect(description(page)).toHaveCount(1);
    descriptions.add((await description(page).getAttribute("content")) ?? "");
    // The shared header and footer.
    await expect(page.getByRole("link", { name: "Cove home" })).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" })).toBeVisible();
  }
  // "/" and "/homepage" are the same page.
  expect(descriptions.size).toBe(PAGES.length - 1);
});

test("the landing page shows the claims, the features, the plans and links to the rest of the site", async ({
  page,
}) => {
  await page.goto("/");
  for (const claim of ["5 min", "~50%", "80%+"]) await expect(page.getByText(claim, { exact: true })).toBeVisible();

  const features = page.locator("#features");
  for (const name of [
    "Ticketing",
    "Live chat with AI",
    "Knowledge base",
    "Customer portal",
    "Automation rules",
    "Analytics",
    "Billing",
    "File attachments",
    "Email inbox import",
    "Branding customization",
  ]) {
    await expect(features.getByRole("heading", { name, exact: true })).toBeVisible();
  }

  const pricing = page.locator("#pricing");
  await expect(pricing.getByText("/month per agent")).toHaveCount(3);
  for (const price of ["$29", "$59", "$99"]) await expect(pricing.getByText(price, { exact: true })).toBeVisible();
  await expect(pricing.getByText("Up to 10 agents")).toBeVisible();
  await expect(pricing.getByText("White-label")).toBeVisible();

  for (const href of ["/about", "/ai-test", "/login", "/register", "/demo", "/terms", "/privacy"]) {
    await expect(page.locator(`a[href="${href}"]`).first()).toBeAttached();
  }

  // The header's section links jump within the page.
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.getByRole("heading", { name: "Simple plans that grow with your team" })).toBeInViewport();
});

for (const plan of [
  { id: "starter", name: "Starter", price: 29 },
  { id: "growth", name: "Growth", price: 59 },
  { id: "business", name: "Business", price: 99 },
]) {
  test(`the ${plan.name} plan's Start Free Trial button opens registration with the plan shown`, async ({ page }) => {
    await page.goto("/#pricing");
    const card = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: plan.name, exact: true }) });
    await card.getByRole("link", { name: "Start Free Trial" }).click();

    await expect(page).toHaveURL(new RegExp(`/register\\?plan=${plan.id}$`));
    await expect(page.getByText(`You picked the ${plan.name} plan ($${plan.price}/month)`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Start free trial" })).toBeVisible();

    // The landing page is still one step back.
    await page.goBack();
    await expect(page.getByRole("heading", { name: "Simple plans that grow with your team" })).toBeVisible();
  });
}

test("inside the running app, the landing page's links still work", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Cove home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Pricing" }).click();
  await expect(page.getByRole("heading", { name: "Simple plans that grow with your team" })).toBeInViewport();
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Growth", exact: true }) });
  await card.getByRole("link", { name: "Start Free Trial" }).click();
  await expect(page).toHaveURL(/\/register\?plan=growth$/);
  await expect(page.getByText("You picked the Growth plan ($59/month)")).toBeVisible();
});

async function checkTableOfContents(page: Page) {
  const toc = page.getByRole("navigation", { name: "Table of contents" });
  const links = toc.getByRole("link");
  await expect(links).toHaveCount(11);
  // From the last to the first, so that every jump has to scroll.
  for (let i = PRIVACY_SECTIONS.length - 1; i >= 0; i--) {
    const title = `${i + 1}. ${PRIVACY_SECTIONS[i]}`;
    await links.nth(i).click();
    await expect(page).toHaveURL(/\/privacy#[a-z-]+$/);
    const heading = page.getByRole("heading", { level: 2, name: title, exact: true });
    await expect(heading).toBeInViewport();
    expect(new URL(page.url()).hash).toBe(`#${await heading.evaluate((h) => h.closest("section")?.id)}`);
  }
}

test("the privacy policy carries its summary, rights boxes and figures, and its 11 contents links work", async ({
  page,
}) => {
  await page.goto("/privacy");
  await expect(page.getByText("Last updated August 21, 2025")).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Privacy at a glance" }).getByRole("listitem")).toHaveCount(4);

  const text = await page.getByRole("main").innerText();
  for (const figure of [
    "last 4 digits",
    "billing address",
    "within 30 days",
    "30 days before it takes effect",
    "7 years",
    "TLS 1.3",
    "AES-256",
    "salt",
    "United States and the European Union",
    "90 days",
    "under 16",
  ]) {
    expect(text).toContain(figure);
  }
  await expect(page.getByRole("link", { name: "Sign in to make a GDPR request" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("link", { name: "Sign in to make a CCPA request" })).toHaveAttribute("href", "/login");

  const footer = page.getByRole("contentinfo");
  for (const [name, href] of [
    ["Privacy Policy", "/privacy"],
    ["Terms of Service", "/terms"],
    ["Data Rights", "/login"],
    ["Cookie Settings", "/login"],
    ["About Cove", "/about"],
    ["Contact support", "mailto:support@cove.example"],
    ["Features", "/#features"],
    ["AI assistant demo", "/ai-test"],
  ] as const) {
    await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }

  await checkTableOfContents(page);
});

test("the privacy contents links also work when the page was opened from inside the app", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Privacy Policy" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  await checkTableOfContents(page);
});

test("the terms carry their date, 10 sections and figures", async ({ page }) => {
  await page.goto("/terms");
  await expect(page.getByText("Last updated August 21, 2025")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Table of contents" }).getByRole("link")).toHaveCount(10);
  await expect(page.getByRole("main").getByRole("heading", { level: 2, name: /^\d+\. / })).toHaveCount(10);
  const text = await page.getByRole("main").innerText();
  for (const figure of ["99.9% uptime", "30 days of the charge", "30 days to export", "30 days after that notice"]) {
    expect(text).toContain(figure);
  }
  expect(text).toContain("12 months");
  expect(text).toContain("unpaid 30 days after they are due");
  expect(text).toContain("18 years old");
});

test("the demo plays from Start to its completion panel, and Reset returns it to 0:00", async ({ page }) => {
  const start = new Date("2026-03-02T09:00:00Z");
  await page.clock.install({ time: start });
  await page.goto("/demo");
  // From here on, time only moves when the test says so.
  await page.clock.pauseAt(new Date(start.getTime() + 60_000));
  const clock = page.getByRole("timer", { name: "Demo clock" });
  const progress = page.getByRole("progressbar", { name: "Demo progress" });
  const steps = page.getByRole("list", { name: "Setup steps" }).getByRole("listitem");
  await expect(clock).toHaveText("0:00 / 4:00");
  await expect(steps).toHaveCount(5);
  await expect(steps.nth(0)).toContainText("Create Your Account");
  await expect(steps.nth(4)).toContainText("Launch Your Helpdesk");

  await page.getByRole("button", { name: "Start Demo" }).click();
  await expect(page.getByRole("button", { name: "Reset Demo" })).toBeVisible();

  // One demo second every 50 ms: 3 s of real time is the first minute.
  await page.clock.runFor(3_000);
  await expect(clock).toHaveText("1:00 / 4:00");
  await expect(progress).toHaveAttribute("aria-valuenow", "25");
  await expect(page.getByText("25%")).toBeVisible();
  await expect(steps.nth(0)).toContainText("Done");
  await expect(steps.nth(1)).toHaveAttribute("aria-current", "step");
  await expect(steps.nth(2)).not.toHaveAttribute("aria-current", "step");

  await page.clock.runFor(240_000);
  await expect(clock).toHaveText("4:00 / 4:00");
  await expect(progress).toHaveAttribute("aria-valuenow", "100");
  const done = page.getByRole("region", { name: "Your help desk is live" });
  await expect(done).toBeVisible();
  await expect(done.getByRole("link", { name: "Start your free trial" })).toHaveAttribute("href", "/register");
  for (let i = 0; i < 5; i++) await expect(steps.nth(i)).toContainText("Done");

  await done.getByRole("button", { name: "Watch Demo Again" }).click();
  await expect(done).toBeHidden();
  await page.clock.runFor(1_000);
  await expect(clock).toHaveText("0:20 / 4:00");

  await page.getByRole("button", { name: "Reset Demo" }).click();
  await expect(clock).toHaveText("0:00 / 4:00");
  await expect(progress).toHaveAttribute("aria-valuenow", "0");
  await expect(page.getByRole("button", { name: "Start Demo" })).toBeVisible();
  await page.clock.runFor(2_000);
  await expect(clock).toHaveText("0:00 / 4:00");
});

test("an unknown path shows the 404 page with a way home, and the dashboard once signed in", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · Cove");
  await expect(page.getByText("You will be asked to sign in")).toBeVisible();
  await page.getByRole("link", { name: "Go home" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Great support, without a big support team" }),
  ).toBeVisible();

  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/still/not/here");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByText("You will be asked to sign in")).toBeHidden();
  await page.getByRole("link", { name: "Go to the dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("/debug lists a failed API call with its status and path, and clears", async ({ page }) => {
  await page.goto("/debug");
  await expect(page.getByText("Nothing logged in this tab")).toBeVisible();

  await signIn(page, DEMO.email, "not the password");
  await expect(page.getByText("Invalid email or password").first()).toBeVisible();

  await page.goto("/debug");
  const entries = page.getByRole("region", { name: "Log entries" }).getByRole("listitem");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText("401 POST /api/auth/login");
  await expect(entries.first()).toContainText("Invalid email or password");

  await page.getByRole("button", { name: "Clear log" }).click();
  await expect(page.getByText("Nothing logged in this tab")).toBeVisible();
  await page.reload();
  await expect(page.getByText("Nothing logged in this tab")).toBeVisible();
});

test("a first visit to the landing page loads at most 100 KB of JavaScript (gzip), sent compressed and kept", async ({
  page,
}) => {
  const scripts: Promise<{ url: string; gzip: number; sent: number; encoding?: string; cache?: string }>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") {
      scripts.push(
        Promise.all([response.body(), response.request().sizes(), response.allHeaders()]).then(
          ([body, sizes, headers]) => ({
            url: response.url(),
            gzip: gzipSync(body, { level: 9 }).length,
            sent: sizes.responseBodySize,
            encoding: headers["content-encoding"],
            cache: headers["cache-control"],
          }),
        ),
      );
    }
  });
  await page.goto("/", { waitUntil: "networkidle" });
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const loaded = await Promise.all(scripts);
  const total = loaded.reduce((sum, s) => sum + s.gzip, 0);
  expect(loaded.length).toBeGreaterThan(0);
  expect(total, loaded.map((s) => `${s.url} ${s.gzip}`).join("\n")).toBeLessThanOrEqual(100_000);
  // Chromium takes brotli: every script worth compressing comes as the build's brotli copy, and fewer bytes cross
  // the network than even gzip would take. The hashed files are the browser's to keep.
  for (const s of loaded.filter((x) => x.gzip > 1000)) expect(s.encoding, s.url).toBe("br");
  for (const s of loaded) expect(s.cache, s.url).toBe("public, max-age=31536000, immutable");
  expect(loaded.reduce((sum, s) => sum + s.sent, 0)).toBeLessThan(total);
});

test("crawlers find the public pages in the sitemap, and robots.txt keeps them out of the app", async ({ request }) => {
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const rules = (await robots.text()).split("\n");
  expect(rules).toContain("Disallow: /dashboard");
  expect(rules).toContain("Disallow: /api/");
  const sitemapLine = rules.find((line) => line.startsWith("Sitemap: "));
  expect(sitemapLine).toMatch(/^Sitemap: http:\/\/localhost:\d+\/sitemap\.xml$/);
  const sitemap = await request.get(new URL(sitemapLine?.slice(9) ?? "").pathname);
  const pages = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? "").pathname);
  expect(pages).toEqual(["/", "/about", "/terms", "/privacy", "/demo", "/ai-test"]);
  // Each is a real page, answered with the app, which a browser must ask for again (no-cache).
  for (const path of pages) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["cache-control"], path).toBe("no-cache");
  }
});

test("the public pages work from the keyboard: skip link and menu @phone", async ({ page }) => {
  await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();

  const toggle = page.getByRole("button", { name: "Open menu" });
  await toggle.click();
  const menu = page.getByRole("navigation", { name: "Main" }).filter({ visible: true });
  await expect(menu.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();

  await page.getByRole("button", { name: "Open menu" }).click();
  await menu.getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.getByRole("heading", { name: "Simple plans that grow with your team" })).toBeInViewport();
});
