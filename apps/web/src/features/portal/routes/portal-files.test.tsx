import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { FakeXhr, fakeUploadsInEachTest } from "../../../test/fake-xhr.ts";
import { findOpenDialog, json, type mockApi, renderApp } from "../../../test/render-app.tsx";
import {
  authOf,
  customerComment,
  customerTicket,
  session,
  signedInPortal,
  ticketDetail,
} from "../test/portal-fixtures.ts";

const boots = customerTicket({ subject: "Exchange hiking boots", status: "open" });
const answer = customerComment({ body: "Here is the label." });
const photo = {
  id: "5c0e2f7a-1b3d-4e5f-8a9b-0c1d2e3f4a5b",
  comment_id: null,
  filename: "boots.png",
  content_type: "image/png",
  size: 2048,
};
const label = {
  id: "6d1f3a8b-2c4e-4f60-9b0c-1d2e3f4a5b6c",
  comment_id: answer.id,
  filename: "return-label.pdf",
  content_type: "application/pdf",
  size: 40_000,
};

const signedInApi = (handlers: Parameters<typeof mockApi>[0] = {}) =>
  signedInPortal([boots], {
    [`GET /api/portal/tickets/${boots.id}`]: () =>
      json(200, { ticket: ticketDetail(boots, [answer], null, [photo, label]) }),
    [`GET /api/portal/tickets/${boots.id}/attachments/${photo.id}`]: () =>
      new Response("png", { headers: { "content-type": "image/png" } }),
    ...handlers,
  });

fakeUploadsInEachTest();
beforeEach(() => {
  vi.stubGlobal("scrollTo", vi.fn());
});

describe("files in the customer portal", () => {
  it("shows each message's files, images inline, fetched with the customer's token", async () => {
    const fetchMock = signedInApi();
    renderApp(`/portal/acme?ticket=${boots.id}`);
    const conversation = await screen.findByRole("list", { name: "Conversation" });
    // The conversation's messages: the ticket's first one, then the team's answer.
    const [first, second] = [...conversation.children] as HTMLElement[];
    expect(await within(first as HTMLElement).findByRole("img", { name: "boots.png" })).toHaveAttribute(
      "src",
      "blob:file",
    );
    expect(within(second as HTMLElement).getByText("return-label.pdf")).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText("39 KB")).toBeInTheDocument();
    expect(authOf(fetchMock, `/api/portal/tickets/${boots.id}/attachments/${photo.id}`)).toBe(
      `Bearer ${session.token}`,
    );
  });

  it("attaches several files to a reply, with progress, and sends their ids", async () => {
    FakeXhr.ids = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];
    const fetchMock = signedInApi({
      [`POST /api/portal/tickets/${boots.id}/comments`]: () =>
        json(201, { comment: customerComment({ body: "Photos", from_customer: true }) }),
    });
    const { user } = renderApp(`/portal/acme?ticket=${boots.id}`);
    await user.type(await screen.findByLabelText("Your reply"), "Photos");
    expect(screen.getByText("Up to 10 files, 5 MB each, 50 MB in all")).toBeInTheDocument();
    await user.upload(screen.getByLabelText("Attach files"), [
      new File(["a"], "left.png", { type: "image/png" }),
      new File(["b"], "right.png", { type: "image/png" }),
    ]);
    const files = screen.getByRole("list", { name: "Files of this reply" });
    await waitFor(() => expect(within(files).getAllByText("Uploaded")).toHaveLength(2));
    expect(FakeXhr.sent.map((s) => s.url)).toEqual([
      "/api/portal/attachments?filename=left.png",
      "/api/portal/attachments?filename=right.png",
    ]);
    expect(FakeXhr.sent[0]?.headers.Authorization).toBe(`Bearer ${session.token}`);

    await user.click(screen.getByRole("button", { name: "Send reply" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(true));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      body: "Photos",
      attachment_ids: ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"],
    });
    await waitFor(() => expect(screen.queryByRole("list", { name: "Files of this reply" })).toBeNull());
  });

  it("sends files with a new ticket from the Create Support Ticket modal", async () => {
    const created = customerTicket({ ticket_number: 22, subject: "Torn tent" });
    FakeXhr.ids = ["33333333-3333-4333-8333-333333333333"];
    const fetchMock = signedInApi({
      "POST /api/portal/tickets": () => json(201, { ticket: ticketDetail(created, []) }),
      [`GET /api/portal/tickets/${created.id}`]: () => json(200, { ticket: ticketDetail(created, []) }),
    });
    const { user } = renderApp("/portal/acme");
    await user.click(await screen.findByRole("button", { name: /Submit Ticket/ }));
    const dialog = await findOpenDialog("dialog", { name: "Create Support Ticket" });
    await user.type(within(dialog).getByLabelText("Subject"), "Torn tent");
    await user.type(within(dialog).getByLabelText("Description"), "See the photo.");
    await user.upload(
      within(dialog).getByLabelText("Attach files"),
      new File(["t"], "tent.jpg", { type: "image/jpeg" }),
    );
    const files = within(dialog).getByRole("list", { name: "Files of this ticket" });
    expect(await within(files).findByText("Uploaded")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Submit Ticket" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(true));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([, i]) => i?.method === "POST")?.[1]?.body));
    expect(body).toEqual({
      subject: "Torn tent",
      description: "See the photo.",
      priority: "normal",
      attachment_ids: ["33333333-3333-4333-8333-333333333333"],
    });
  });
});
