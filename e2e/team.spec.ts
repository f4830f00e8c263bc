import { type Browser, expect, type Page, test } from "@playwright/test";
import { mailTo, newAccount, register, signIn, signOut } from "./support.ts";

// A 2x2 PNG, as a camera picture would arrive: the page scales it down and sends a small JPEG.
const PICTURE = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

let n = 0;
function teammate() {
  const id = `${Date.now().toString(36)}${(n++).toString(36)}`;
  return { firstName: "Theo", lastName: `Marsh ${id}`, email: `theo-${id}@example.com`, password: "tide pool 77" };
}
type Teammate = ReturnType<typeof teammate>;

async function invite(page: Page, who: Teammate, role: "Agent" | "Admin" = "Agent") {
  await page.goto("/users");
  await page.getByRole("button", { name: "Invite User" }).click();
  const form = page.getByRole("form", { name: "Invite a team member" });
  await form.getByLabel("First name").fill(who.firstName);
  await form.getByLabel("Last name").fill(who.lastName);
  await form.getByLabel("Email").fill(who.email);
  await form.getByLabel("Role").selectOption({ label: role });
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText("User invited successfully!")).toBeVisible();
  const row = page.getByRole("row", { name: `${who.firstName} ${who.lastName}` });
  await expect(row.getByRole("cell", { name: "Invited", exact: true })).toBeVisible();
  await expect(row.getByRole("cell", { name: "Never", exact: true })).toBeVisible();
}

/** Opens the invitation link from the email in a browser of its own and joins: the teammate is then signed in. */
async function acceptFromEmail(browser: Browser, who: Teammate, company: string) {
  const mail = await mailTo(who.email);
  expect(mail).toContain(`Subject: You're invited to join ${company} on Cove`);
  expect(mail).toContain("Content-Type: text/html");
  const link = /http:\/\/localhost:\d+\/accept-invite\?token=[A-Za-z0-9_-]+/.exec(mail)?.[0];
  expect(link).toBeTruthy();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link ?? "");
  await expect(page.getByRole("heading", { name: `Join ${company} on Cove` })).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveValue(who.firstName);
  await page.getByLabel("Password", { exact: true }).fill(who.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(who.password);
  await page.getByRole("button", { name: "Join the team" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { page, link: link ?? "", close: () => context.close() };
}

test("an admin invites an agent, who joins from the email and sees the agent's view", async ({ page, browser }) => {
  const admin = await register(page);
  // A new owner's dashboard lists the first steps, none done; the first one leads to the team screen.
  const firstSteps = page.getByRole("region", { name: "Getting started" });
  await expect(firstSteps).toContainText("0 of 5 done");
  await firstSteps.getByRole("link", { name: "Invite a teammate" }).click();
  await expect(page).toHaveURL(/\/users$/);
  const agent = teammate();
  await invite(page, agent);
  // Back on the dashboard, inviting ticked it.
  await page.getByRole("navigation", { name: "Main" }).first().getByRole("link", { name: "Dashboard" }).click();
  await expect(firstSteps).toContainText("1 of 5 done");
  await expect(firstSteps.getByRole("listitem").filter({ hasText: "Invite a teammate" })).toContainText("(done)");

  const joined = await acceptFromEmail(browser, agent, admin.company);
  // The checklist is the admins' to do: the agent's dashboard does not show it.
  await expect(joined.page.getByRole("heading", { name: "Recent Tickets" })).toBeVisible();
  await expect(joined.page.getByRole("region", { name: "Getting started" })).toHaveCount(0);
  const nav = joined.page.getByRole("navigation", { name: "Main" }).first();
  await expect(nav.getByRole("link", { name: "Users" })).toBeVisible();
  for (const hidden of ["Billing", "Settings"]) {
    await expect(nav.getByRole("link", { name: hidden })).toHaveCount(0);
  }
  // Automation is there read-only (docs/product.md, "Roles"; e2e/automation.spec.ts covers the screen).
  await expect(nav.getByRole("link", { name: "Automation" })).toBeVisible();
  await joined.page.goto("/users");
  await expect(joined.page.getByRole("row", { name: `${admin.firstName} ${admin.lastName}` })).toBeVisible();
  await expect(joined.page.getByRole("button", { name: "Invite User" })).toHaveCount(0);
  await expect(joined.page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);
  await joined.page.goto("/settings");
  await expect(joined.page.getByRole("heading", { name: "Only an admin can open this page" })).toBeVisible();

  // The link worked once.
  await signOut(joined.page);
  await joined.page.goto(joined.link);
  await expect(joined.page.getByText("This invitation has already been used.")).toBeVisible();
  // And the new agent signs in with the password they chose.
  await signIn(joined.page, agent.email, agent.password);
  await expect(joined.page).toHaveURL(/\/dashboard$/);
  await joined.close();

  // The admin's list shows them active now.
  await page.goto("/users");
  const row = page.getByRole("row", { name: `${agent.firstName} ${agent.lastName}` });
  await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();
});

test("an admin changes a role after confirming, then deactivates the member, who can no longer sign in", async ({
  page,
  browser,
}) => {
  const admin = await register(page);
  const member = teammate();
  await invite(page, member);
  const joined = await acceptFromEmail(browser, member, admin.company);

  await page.reload();
  const row = page.getByRole("row", { name: `${member.firstName} ${member.lastName}` });
  await row.getByLabel(`Role of ${member.firstName} ${member.lastName}`).selectOption("admin");
  const confirmRole = page.getByRole("alertdialog", {
    name: "Are you sure you want to change this user's role to Admin?",
  });
  await expect(confirmRole).toBeVisible();
  await confirmRole.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByText("User updated successfully!")).toBeVisible();
  await expect(row.getByLabel(`Role of ${member.firstName} ${member.lastName}`)).toHaveValue("admin");

  await row.getByRole("button", { name: `Deactivate ${member.firstName} ${member.lastName}` }).click();
  const confirmOff = page.getByRole("alertdialog", { name: "Are you sure you want to deactivate this user?" });
  await confirmOff.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByText("User deactivated successfully!")).toBeVisible();
  await expect(row.getByRole("cell", { name: "Inactive", exact: true })).toBeVisible();
  await page.screenshot({ path: "/tmp/team-desktop.png", fullPage: true });

  // Their open session ends at once: the next screen they open sends them to sign in, and sign-in is refused.
  await joined.page.goto("/tickets");
  await expect(joined.page).toHaveURL(/\/login$/);
  await signIn(joined.page, member.email, member.password);
  await expect(joined.page.getByText("This account has been deactivated").first()).toBeVisible();
  await joined.close();
});

test("a member changes their name, picture and password from the profile page", async ({ page, browser }) => {
  const account = await register(page);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, account.email, account.password);
  await expect(otherPage).toHaveURL(/\/dashboard$/);

  const banner = page.getByRole("banner");
  await banner.getByRole("link", { name: /Your profile/ }).click();
  await expect(page.getByRole("heading", { name: "Your profile" })).toBeVisible();

  const names = page.getByRole("form", { name: "Your name" });
  await names.getByLabel("Last name").fill("Okafor-Reyes");
  await names.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Profile updated")).toBeVisible();
  await expect(banner.getByText(`${account.firstName} Okafor-Reyes`, { exact: true })).toBeVisible();

  await page.locator('input[type="file"]').setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PICTURE });
  await expect(page.getByText("Profile picture updated")).toBeVisible();
  await expect(banner.locator("img")).toHaveAttribute("src", /^data:image\/jpeg;base64,/);

  const password = page.getByRole("form", { name: "Change password" });
  await password.getByLabel("Current password", { exact: true }).fill("not my password");
  await password.getByLabel("New password", { exact: true }).fill("new harbour lights");
  await password.getByLabel("Confirm new password", { exact: true }).fill("new harbour lights");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByText("Your current password is not correct")).toBeVisible();

  await password.getByLabel("Current password", { exact: true }).fill(account.password);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed")).toBeVisible();

  // This browser stays signed in; the other one is signed out.
  await page.reload();
  await expect(banner.getByText(`${account.firstName} Okafor-Reyes`, { exact: true })).toBeVisible();
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/login$/);
  await signIn(otherPage, account.email, "new harbour lights");
  await expect(otherPage).toHaveURL(/\/dashboard$/);
  await other.close();
});

test("@phone the team screen works on a phone", async ({ page }) => {
  const account = newAccount();
  await register(page, account);
  const member = teammate();
  await page.goto("/users");
  await page.getByRole("button", { name: "Invite User" }).click();
  const form = page.getByRole("form", { name: "Invite a team member" });
  await form.getByLabel("First name").fill(member.firstName);
  await form.getByLabel("Last name").fill(member.lastName);
  await form.getByLabel("Email").fill(member.email);
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText("User invited successfully!")).toBeVisible();
  // On a phone each member is a card: status, role and actions all on screen, nothing clipped or scrolled sideways.
  const row = page.getByRole("row", { name: `${member.firstName} ${member.lastName}` });
  await expect(row.getByText("Invited", { exact: true })).toBeVisible();
  const width = page.viewportSize()?.width ?? 0;
  for (const control of [
    row.getByRole("combobox", { name: /Role of/ }),
    row.getByRole("button", { name: /Resend invitation/ }),
    row.getByText("Invited", { exact: true }),
  ]) {
    const box = await control.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "/tmp/team-phone.png", fullPage: true });
  await page.getByRole("link", { name: /Your profile/ }).click();
  await expect(page.getByRole("heading", { name: "Your profile" })).toBeVisible();
  await page.screenshot({ path: "/tmp/profile-phone.png", fullPage: true });
});
