import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { comment, me, ticket } from "../test/ticket-fixtures.ts";

afterEach(() => {
  vi.unstubAllGlobals();
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
