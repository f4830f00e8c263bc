import { expect, type Page, test } from "@playwright/test";
import { expectToastClear, register, sessionToken } from "./support.ts";

/**
 * Live chat's layout (issue 29, item 9): with a long conversation open, the page itself does not scroll; the thread
 * scrolls above a reply box that is in view from the start, on a laptop and on a phone. On a phone a toast keeps clear
 * of the page's heading and the conversation's actions.
 */

/** A visitor starts a chat on the new organization's widget and the agent writes forty messages into it. */
async function longChat(page: Page): Promise<string> {
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const general = (await (await page.request.get("/api/settings/general", { headers })).json()) as { slug: string };
  const started = await page.request.post(`/api/public/${general.slug}/chat/sessions`, {
    data: { name: "Rosa Diaz", email: "rosa.diaz@example.com" },
  });
  expect(started.status(), await started.text()).toBe(201);
  const sessionId = ((await started.json()) as { session: { id: string } }).session.id;
  for (let i = 1; i <= 40; i++) {
    const sent = await page.request.post(`/api/chat/sessions/${sessionId}/messages`, {
      headers,
      data: { message: `Message ${i}: checking the order, the size and the delivery date for you.` },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  return sessionId;
}

async function expectComposerInView(page: Page, shot: string) {
  const conversation = page.getByRole("region", { name: "Chat with Rosa Diaz" });
  await expect(conversation.getByText("Message 40:")).toBeVisible();
  const box = conversation.getByRole("textbox", { name: "Message" });
  await expect(box).toBeVisible();
  await page.screenshot({ path: `test-results/${shot}` });
  const view = await page.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
    scrollY: window.scrollY,
  }));
  // The page does not scroll, and has not been scrolled to bring the box in.
  expect(view.scrollHeight).toBeLessThanOrEqual(view.innerHeight);
  expect(view.scrollY).toBe(0);
  const rect = await box.boundingBox();
  expect(rect).not.toBeNull();
  expect((rect?.y ?? -1) >= 0 && (rect?.y ?? 0) + (rect?.height ?? 0) <= view.innerHeight).toBe(true);
  // The thread is what scrolls: it holds more than it shows, and it starts at the newest message.
  const thread = conversation.getByRole("list").first();
  const scroller = await thread.evaluate((list) => {
    const el = list.parentElement as HTMLElement;
    return { scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, overflowY: getComputedStyle(el).overflowY };
  });
  expect(scroller.overflowY).toBe("auto");
  expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight);
  await expect(conversation.getByText("Message 40:")).toBeInViewport();
}

const PHONE = { width: 390, height: 844 };

/** A new organization with a long conversation, opened on /chat at this window size. */
async function openLongChat(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await register(page);
  const id = await longChat(page);
  await page.goto(`/chat?session=${id}`);
}

test("at 1280 px a long conversation scrolls above a reply box in view, and the page does not scroll", async ({
  page,
}) => {
  await openLongChat(page, { width: 1280, height: 720 });
  await expectComposerInView(page, "chat-1280.png");
});

test("at 390 px a long conversation scrolls above a reply box in view, and the page does not scroll @phone", async ({
  page,
}) => {
  await openLongChat(page, PHONE);
  await expectComposerInView(page, "chat-390.png");
});

test("at 390 px a toast sits below the heading, All sessions and the conversation's actions, not over them @phone", async ({
  page,
}) => {
  await openLongChat(page, PHONE);
  const conversation = page.getByRole("region", { name: "Chat with Rosa Diaz" });
  await conversation.getByRole("button", { name: "Create ticket" }).click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: /Ticket #\d+ created from this chat/ });
  await expectToastClear(page, toast, [
    page.getByRole("heading", { level: 1, name: "Live Chat" }),
    page.getByRole("button", { name: "All sessions" }),
    conversation.locator("header"),
  ]);
  await page.screenshot({ path: "test-results/chat-toast-390.png" });
});
