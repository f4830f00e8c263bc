import type { ApiKey } from "@cove/contract/settings.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { findOpenDialog, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { general } from "../test/settings-fixtures.ts";

const key: ApiKey = {
  id: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  name: "Zapier",
  scope: "read_write",
  prefix: "cove_ab12",
  created_at: "2026-11-29T08:00:00.000Z",
  created_by: "Ada Lovelace",
  last_used_at: null,
  revoked_at: null,
};

const sent = (fetchMock: ReturnType<typeof mockApi>, method: string) =>
  JSON.parse(String(fetchMock.mock.calls.find(([, init]) => init?.method === method)?.[1]?.body));

describe("Settings: API keys and deleting the organization", () => {
  it("creates a key with its name and scope and shows it once", async () => {
    storeSession();
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/settings/api-keys": () => json(200, { api_keys: [] }),
      "GET /api/webhooks": () => json(200, { webhooks: [] }),
      "POST /api/settings/api-keys": () => json(201, { api_key: key, token: "cove_ab12_secret" }),
    });
    const { user } = renderApp("/settings?tab=integrations");
    const name = await screen.findByLabelText(/Key name/);
    const create = screen.getByRole("button", { name: "Create key" });
    expect(create).toBeDisabled();
    await user.type(name, "Zapier");
    await user.selectOptions(screen.getByLabelText("Scope"), "Read and write");
    await user.click(create);
    expect(await screen.findByTestId("new-api-key")).toHaveTextContent("cove_ab12_secret");
    expect(sent(fetchMock, "POST")).toEqual({ name: "Zapier", scope: "read_write" });
    expect(name).toHaveValue("");
  });

  it("deletes only once the name is typed, and says a refusal under the field", async () => {
    storeSession();
    const reason = "The name does not match your organization's name";
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/settings/general": () => json(200, general),
      "GET /api/organization/export": () => json(200, { export: null }),
      "DELETE /api/organization": () => json(400, { error: reason, code: "VALIDATION_ERROR" }),
    });
    const { user } = renderApp("/settings");
    await user.click(await screen.findByRole("button", { name: "Delete organization" }));
    const dialog = await findOpenDialog("alertdialog");
    const confirm = within(dialog).getByRole("button", { name: "Delete forever" });
    expect(confirm).toBeDisabled();
    const field = within(dialog).getByLabelText("Organization name");
    await user.type(field, "Analytical Engines");
    await user.click(confirm);
    await waitFor(() => expect(field).toHaveAccessibleDescription(reason));
    expect(sent(fetchMock, "DELETE")).toEqual({ confirm: "Analytical Engines" });
  });
});
