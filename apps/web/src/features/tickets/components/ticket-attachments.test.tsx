import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeXhr } from "../../../test/fake-xhr.ts";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { comment, me, ticket } from "../test/ticket-fixtures.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.reset();
});

describe("a ticket's attachments", () => {
  it("lists each file under its message, shows images as thumbnails and downloads with the session", async () => {
    const reply = comment({ author_name: "Grace Hopper", body: "Here is a photo" });
    const current = ticket({
      comments: [reply],
      attachments: [
        {
          id: "3d1c1a7e-2b7e-4f0e-9d55-0f6a1b2c3d4e",
          comment_id: null,
          filename: "invoice.pdf",
          content_type: "application/pdf",
          size: 2048,
        },
        {
          id: "7a9e2c41-5b3d-4c8e-8f21-6d4b3a2c1e0f",
          comment_id: reply.id,
          filename: "lamp.png",
          content_type: "image/png",
          size: 300,
        },
      ],
    });
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: vi.fn(() => "blob:file"), revokeObjectURL: vi.fn() }));
    storeSession();
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      [`GET /api/tickets/${current.id}/attachments/3d1c1a7e-2b7e-4f0e-9d55-0f6a1b2c3d4e`]: () =>
        new Response("%PDF-1.4", { headers: { "content-type": "application/pdf" } }),
      [`GET /api/tickets/${current.id}/attachments/7a9e2c41-5b3d-4c8e-8f21-6d4b3a2c1e0f`]: () =>
        new Response("png", { headers: { "content-type": "image/png" } }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    const description = await screen.findByRole("article", { name: "Description" });
    const first = within(description).getByRole("list", { name: "Attachments" });
    expect(within(first).getByText("invoice.pdf")).toBeInTheDocument();
    expect(within(first).getByText("2 KB")).toBeInTheDocument();
    const answer = screen.getByRole("article", { name: "Reply from Grace Hopper" });
    expect(await within(answer).findByRole("img", { name: "lamp.png" })).toHaveAttribute("src", "blob:file");

    await user.click(within(first).getByRole("button", { name: /invoice\.pdf/ }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith("3d1c1a7e-2b7e-4f0e-9d55-0f6a1b2c3d4e"))).toBe(
        true,
      ),
    );
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith("3d1c1a7e-2b7e-4f0e-9d55-0f6a1b2c3d4e"));
    const headers = (call?.[1]?.headers ?? {}) as Record<string, string>;
    expect(headers.Authorization).toMatch(/^Bearer /);
  });
});

describe("attaching files to a reply", () => {
  it("uploads a chosen file with the session and sends its id with the reply", async () => {
    const current = ticket();
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    storeSession();
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      [`POST /api/tickets/${current.id}/comments`]: () => json(201, { comment: comment({ body: "See the manual" }) }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);

    await user.click(await screen.findByRole("button", { name: "Reply" }));
    await user.type(screen.getByLabelText("Reply"), "See the manual");
    await user.upload(
      screen.getByLabelText("Attach files"),
      new File(["%PDF-1.4"], "manual v2.pdf", { type: "application/pdf" }),
    );
    const files = screen.getByRole("list", { name: "Files of this reply" });
    expect(await within(files).findByText("Uploaded")).toBeInTheDocument();
    expect(FakeXhr.sent[0]?.url).toBe(`/api/tickets/${current.id}/attachments?filename=manual%20v2.pdf`);
    expect(FakeXhr.sent[0]?.headers.Authorization).toMatch(/^Bearer /);

    await user.click(screen.getByRole("button", { name: "Send Reply" }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(true));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      body: "See the manual",
      is_public: true,
      attachment_ids: ["9b2f6c1d-3e4a-4b5c-8d7e-0f1a2b3c4d5e"],
    });
  });

  it("says the server's limits before uploading, and refuses a file over them without sending it", async () => {
    const current = ticket();
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    storeSession();
    mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/users": () => json(200, { users: [me] }),
      [`GET /api/tickets/${current.id}`]: () => json(200, { ticket: current }),
      "GET /api/public/attachment-limits": () =>
        json(200, { limits: { max_file_bytes: 1024, max_message_bytes: 2048, max_files: 2 } }),
    });
    const { user } = renderApp(`/tickets/${current.id}`);
    await user.click(await screen.findByRole("button", { name: "Reply" }));
    expect(await screen.findByText("Up to 2 files, 1 KB each, 2 KB in all")).toBeInTheDocument();
    await user.upload(screen.getByLabelText("Attach files"), new File(["x".repeat(2000)], "big.log"));
    const files = screen.getByRole("list", { name: "Files of this reply" });
    expect(within(files).getByText("big.log is too large: a file can be at most 1 KB.")).toBeInTheDocument();
    expect(FakeXhr.sent).toEqual([]);
    // The server's own refusal is shown as it says it.
    FakeXhr.answer = () => ({ status: 413, body: { error: "The file is too large.", code: "PAYLOAD_TOO_LARGE" } });
    await user.upload(screen.getByLabelText("Attach files"), new File(["x"], "small.txt"));
    expect(await within(files).findByText("small.txt: The file is too large.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send Reply" })).toBeEnabled();
  });
});
