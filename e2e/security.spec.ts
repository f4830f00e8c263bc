import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { register, sessionToken } from "./support.ts";

/** Issue 32 in a browser: a customer's data on request, and the audit log that records it. */

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
