import type { CannedReply } from "@cove/contract/canned-replies.ts";
import { emptyTargets } from "@cove/contract/sla.ts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  calls,
  findOpenDialog,
  json,
  mockApi,
  renderApp,
  signedIn,
  storeSession,
  testUser,
} from "../../../test/render-app.tsx";
import { me, ticket } from "../../tickets/test/ticket-fixtures.ts";

const shipping: CannedReply = {
  id: "4d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a",
  title: "Shipping times",
  body: "Hi {{ticket.requester_name}}, about {{ ticket.subject }}: parcels take 3 to 5 days. {{ticket.unknown}}",
  updated_at: "2030-01-10T09:30:00.000Z",
};

describe("canned replies", () => {
  it("are inserted into the reply box with the ticket's placeholders filled", async () => {
    storeSession();
    const current = ticket({ subject: "Late parcel", requester_name: "Ana Ruiz" });
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      "GET /api/canned-replies": () => json(200, { canned_replies: [shipping] }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);
    await user.click(await screen.findByRole("button", { name: "Reply" }));
    const form = screen.getByRole("form", { name: "Send a reply" });
    const box = within(form).getByRole("textbox", { name: "Reply" });
    await user.type(box, "Hello.");
    await user.selectOptions(await within(form).findByLabelText("Insert canned reply"), "Shipping times");
    expect(box).toHaveValue("Hello.\n\nHi Ana Ruiz, about Late parcel: parcels take 3 to 5 days. {{ticket.unknown}}");
  });

  it("are added, edited and deleted by an admin on the automation screen", async () => {
    const fetchMock = signedIn({
      "GET /api/users": () => json(200, { users: [me] }),
      "GET /api/automation/rules": () => json(200, { rules: [] }),
      "GET /api/automation/stats": () => json(200, { total_rules: 0, active_rules: 0, executions_today: 0 }),
      "GET /api/automation/sla": () => json(200, { targets: emptyTargets() }),
      "GET /api/canned-replies": () => json(200, { canned_replies: [shipping] }),
      "POST /api/canned-replies": (init) =>
        json(201, {
          canned_reply: { ...shipping, id: "5d3c2b1a-0f9e-4d8c-9b7a-6f5e4d3c2b1a", ...JSON.parse(String(init?.body)) },
        }),
      [`PUT /api/canned-replies/${shipping.id}`]: (init) =>
        json(200, { canned_reply: { ...shipping, ...JSON.parse(String(init?.body)) } }),
      [`DELETE /api/canned-replies/${shipping.id}`]: () => json(200, { message: "Canned reply deleted" }),
    });
    const { user } = renderApp("/automation");
    const add = await screen.findByRole("form", { name: "Add a canned reply" });
    await user.click(within(add).getByRole("button", { name: "Add canned reply" }));
    expect(await within(add).findByText("Title is required")).toBeInTheDocument();
    expect(within(add).getByLabelText("Reply text")).toHaveAccessibleDescription("Reply is required");
    expect(calls(fetchMock).some((c) => c.startsWith("POST"))).toBe(false);
    await user.type(within(add).getByLabelText("Title"), "Refunds");
    await user.type(within(add).getByLabelText("Reply text"), "Refunds take a week.");
    await user.click(within(add).getByRole("button", { name: "Add canned reply" }));
    await screen.findByText("Canned reply added");
    const posted = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(posted?.[1]?.body))).toEqual({ title: "Refunds", body: "Refunds take a week." });

    const item = screen.getByRole("listitem", { name: "Shipping times" });
    await user.click(within(item).getByRole("button", { name: "Edit Shipping times" }));
    const edit = screen.getByRole("form", { name: "Edit canned reply" });
    expect(within(edit).getByLabelText("Title")).toHaveValue("Shipping times");
    await user.clear(within(edit).getByLabelText("Reply text"));
    await user.type(within(edit).getByLabelText("Reply text"), "Two days.");
    await user.click(within(edit).getByRole("button", { name: "Save canned reply" }));
    await screen.findByText("Canned reply saved");
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === "PUT");
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ title: "Shipping times", body: "Two days." });

    await user.click(within(item).getByRole("button", { name: "Delete Shipping times" }));
    const dialog = await findOpenDialog("alertdialog");
    expect(dialog).toHaveTextContent('Delete the canned reply "Shipping times"?');
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await screen.findByText('Canned reply "Shipping times" deleted');
    expect(calls(fetchMock).filter((c) => c.startsWith("DELETE"))).toHaveLength(1);
  });
});
