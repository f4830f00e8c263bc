import type { Attachment } from "@cove/contract/attachments.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FakeXhr, fakeUploadsInEachTest } from "../../../test/fake-xhr.ts";
import { calls, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { article, helpArticle } from "../test/kb-fixtures.ts";

const map: Attachment = {
  id: "00000000-0000-4000-8000-00000000f001",
  comment_id: null,
  filename: "store-map.png",
  content_type: "image/png",
  size: 3000,
};
const form: Attachment = {
  ...map,
  id: "00000000-0000-4000-8000-00000000f002",
  filename: "returns-form.pdf",
  content_type: "application/pdf",
};

fakeUploadsInEachTest();

describe("an article's files", () => {
  it("are added with progress and removed in the editor, and say who can open them", async () => {
    let current = article({ status: "draft", published_at: null, attachments: [map] });
    storeSession();
    const fetchMock = mockApi({
      "GET /api/auth/me": () => json(200, { user: testUser }),
      "GET /api/kb/categories": () => json(200, { categories: [] }),
      [`GET /api/kb/articles/${current.id}`]: () => json(200, { article: current }),
      [`GET /api/kb/articles/${current.id}/files/${map.id}`]: () =>
        new Response("png", { headers: { "content-type": "image/png" } }),
      [`DELETE /api/kb/articles/${current.id}/files/${map.id}`]: () => {
        current = { ...current, attachments: (current.attachments ?? []).filter((a) => a.id !== map.id) };
        return json(200, { message: "File removed" });
      },
    });
    FakeXhr.answer = () => {
      current = { ...current, attachments: [...(current.attachments ?? []), form] };
      return { status: 201, body: { attachment: form } };
    };
    const { user } = renderApp(`/knowledge-base/${current.id}/edit`);
    const files = await screen.findByRole("region", { name: "Files" });
    expect(await within(files).findByRole("img", { name: "store-map.png" })).toHaveAttribute("src", "blob:file");
    expect(within(files).getByText(/Only your team sees a draft's files/)).toBeInTheDocument();

    await user.upload(within(files).getByLabelText("Attach files"), new File(["%PDF"], "returns-form.pdf"));
    // Kept at once: it joins the article's files (and leaves the list of uploads).
    await waitFor(() =>
      expect(
        within(within(files).getByRole("list", { name: "Attachments" })).getByText("returns-form.pdf"),
      ).toBeVisible(),
    );
    expect(FakeXhr.sent[0]?.url).toBe(`/api/kb/articles/${current.id}/files?filename=returns-form.pdf`);
    expect(FakeXhr.sent[0]?.headers.Authorization).toMatch(/^Bearer /);

    await user.click(within(files).getByRole("button", { name: "Remove store-map.png" }));
    await waitFor(() => expect(within(files).queryByText("store-map.png")).toBeNull());
    expect(calls(fetchMock)).toContain(`DELETE /api/kb/articles/${current.id}/files/${map.id}`);
  });

  it("are listed under a published article in the help center, fetched without any session", async () => {
    const answer = helpArticle({ attachments: [map, form] });
    const fetchMock = mockApi({
      "GET /api/public/acme/kb/articles/do-you-ship-internationally": () => json(200, answer),
      [`GET /api/public/acme/kb/articles/do-you-ship-internationally/files/${map.id}`]: () =>
        new Response("png", { headers: { "content-type": "image/png" } }),
    });
    renderApp("/help/acme/articles/do-you-ship-internationally");
    const view = await screen.findByRole("article", { name: answer.article.title });
    expect(await within(view).findByRole("img", { name: "store-map.png" })).toBeInTheDocument();
    expect(within(view).getByText("returns-form.pdf")).toBeInTheDocument();
    const fetched = fetchMock.mock.calls.find(([url]) => String(url).includes("/files/"));
    expect(new Headers(fetched?.[1]?.headers).get("Authorization")).toBeNull();
  });
});
