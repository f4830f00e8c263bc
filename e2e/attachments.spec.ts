import { expect, type Page, test } from "@playwright/test";
import { DEMO, mailTo, signIn } from "./support.ts";

/**
 * Files on a ticket end to end: a customer signed in to the portal attaches an image to a reply and sees it inline in
 * their conversation; Dana, the demo admin, sees the same picture on the ticket. The picture is a real PNG, so "inline"
 * means the browser decoded it (a thumbnail fetched with each one's own token, never the other's).
 */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC",
  "base64",
);

async function newTicket(page: Page, subject: string, requester: [string, string]): Promise<string> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem("cove.session") ?? "{}").token as string);
  const res = await page.request.post("/api/tickets", {
    headers: { Authorization: `Bearer ${token}` },
    data: { subject, description: `About ${subject}.`, requester_name: requester[0], requester_email: requester[1] },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { ticket: { id: string } }).ticket.id;
}

/** The image is on the page and the browser could decode it. */
async function expectDecoded(page: Page, name: string, scope = page.locator("body")) {
  const image = scope.getByRole("img", { name });
  await expect(image).toBeVisible({ timeout: 10_000 });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
}

test("a customer attaches an image to a portal reply and sees it inline; the agent sees it too", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const id = Date.now().toString(36);
  const email = `ines-${id}@example.com`;
  const subject = `Scratched lens ${id}`;

  const dana = await (await browser.newContext()).newPage();
  await signIn(dana, DEMO.email, DEMO.password);
  await expect(dana).toHaveURL(/\/dashboard$/);
  const ticketId = await newTicket(dana, subject, ["Ines Moreau", email]);

  const ines = await (await browser.newContext()).newPage();
  await ines.goto("/portal/acme");
  await ines.getByLabel("Email address").fill(email);
  await ines.getByRole("button", { name: "Email me a sign-in link" }).click();
  const link = /https?:\/\/\S+\/portal\/acme\?token=[A-Za-z0-9_-]+/.exec(await mailTo(email))?.[0];
  if (!link) throw new Error("no sign-in link");
  await ines.goto(link);
  await ines
    .getByRole("list", { name: "My tickets" })
    .getByRole("button", { name: new RegExp(subject) })
    .click();

  // The limits are said before anything is sent; the file uploads with its own progress, then goes with the reply.
  await expect(ines.getByText("Up to 10 files, 5 MB each, 50 MB in all")).toBeVisible();
  await ines.getByLabel("Your reply").fill("Here is the scratch.");
  await ines.getByLabel("Attach files").setInputFiles({ name: "scratch.png", mimeType: "image/png", buffer: PNG });
  await expect(ines.getByRole("list", { name: "Files of this reply" }).getByText("Uploaded")).toBeVisible();
  await ines.getByRole("button", { name: "Send reply" }).click();
  const conversation = ines.getByRole("list", { name: "Conversation" });
  await expect(conversation.getByText("Here is the scratch.")).toBeVisible();
  await expectDecoded(ines, "scratch.png", conversation);

  await dana.goto(`/tickets/${ticketId}`);
  const reply = dana.getByRole("article", { name: "Reply from Ines Moreau" });
  await expect(reply.getByText("Here is the scratch.")).toBeVisible();
  await expectDecoded(dana, "scratch.png", reply);
});

test("an agent opens a ticket from the form with a photo attached; it shows inline with the description", async ({
  page,
}) => {
  const subject = `Bent tent pole ${Date.now().toString(36)}`;
  await signIn(page, DEMO.email, DEMO.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/tickets/new");
  await page.getByLabel("Requester Name").fill("Noor Haddad");
  await page.getByLabel("Requester Email").fill("noor@example.com");
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Description").fill("The customer sent this photo by phone.");
  await page.getByLabel("Attach files").setInputFiles({ name: "pole.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByRole("list", { name: "Files of this ticket" }).getByText("Uploaded")).toBeVisible();
  await page.getByRole("button", { name: "Create Ticket" }).click();

  await expect(page.getByRole("heading", { level: 1, name: new RegExp(subject) })).toBeVisible();
  await expectDecoded(page, "pole.png", page.getByRole("article", { name: "Description" }));
});
