import type { Article } from "@cove/contract/kb.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { findOpenDialog, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { article, category, uuid } from "../test/kb-fixtures.ts";

const shipping = category({ name: "Shipping & Delivery" });

function signedIn(handlers: Parameters<typeof mockApi>[0] = {}) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/kb/categories": () => json(200, { categories: [shipping] }),
    ...handlers,
  });
}

type FetchMock = ReturnType<typeof mockApi>;
const sent = (fetchMock: FetchMock, method: string) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === method).map(([, init]) => JSON.parse(String(init?.body)));

/** The article the server makes of a POST or PUT body. */
function echo(base: Article) {
  return (init: RequestInit | undefined) => json(200, { article: { ...base, ...JSON.parse(String(init?.body)) } });
}

// Moving between pages scrolls to the top, which jsdom does not do.
beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

describe("article editor: a new article", () => {
  it("needs a title, and a body before publishing, before calling the API", async () => {
    const fetchMock = signedIn();
    const { user } = renderApp("/knowledge-base/new");

    await user.click(await screen.findByRole("button", { name: "Publish" }));
    expect(await screen.findByText("Title is required")).toBeInTheDocument();

    await user.type(screen.getByLabelText("Title"), "Returns");
    await user.click(screen.getByRole("button", { name: "Publish" }));
    expect(await screen.findByText("Write the article before publishing it.")).toBeInTheDocument();
    expect(screen.getByLabelText("Body")).toHaveAttribute("aria-invalid", "true");
    expect(sent(fetchMock, "POST")).toEqual([]);
  });

  it("previews the Markdown as it is typed, sanitized", async () => {
    signedIn();
    const { user } = renderApp("/knowledge-base/new");

    const body = await screen.findByLabelText("Body");
    await user.type(body, "## Start a return{enter}{enter}[Bad](javascript:alert(1)) <img src=x onerror=alert(1)>");
    const preview = screen.getByRole("region", { name: "Preview" });
    expect(await within(preview).findByRole("heading", { level: 2, name: "Start a return" })).toBeInTheDocument();
    expect(preview.querySelector("img, script, [onerror]")).toBeNull();
    expect(preview.querySelector("a[href^='javascript']")).toBeNull();
    expect(preview).toHaveTextContent("<img src=x onerror=alert(1)>");
  });

  it("publishes the article with its category and phrasings, then opens it", async () => {
    const created = article({ id: uuid(), title: "How do I return an item?" });
    const fetchMock = signedIn({
      "POST /api/kb/articles": (init) => json(201, { article: { ...created, ...JSON.parse(String(init?.body)) } }),
      [`GET /api/kb/articles/${created.id}`]: () => json(200, { article: created }),
    });
    const { user, router } = renderApp("/knowledge-base/new");

    await user.type(await screen.findByLabelText("Title"), "How do I return an item?");
    await waitFor(() => expect(screen.getAllByRole("option", { name: "Shipping & Delivery" })).toHaveLength(1));
    // By value: user-event compares option labels as HTML, where & is &amp;.
    await user.selectOptions(screen.getByLabelText("Category"), shipping.id);
    await user.type(screen.getByLabelText("Body"), "Within **30 days**.");
    await user.click(screen.getByRole("button", { name: "Add a phrasing" }));
    await user.type(screen.getByLabelText("Alternative phrasing 1"), "Can I send it back?");
    await user.click(screen.getByRole("button", { name: "Add a phrasing" }));
    await user.click(screen.getByRole("button", { name: "Add a phrasing" }));
    await user.type(screen.getByLabelText("Alternative phrasing 3"), "  Return policy  ");
    await user.click(screen.getByRole("button", { name: "Publish" }));

    expect(await screen.findByText("Article published")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/knowledge-base/${created.id}`));
    expect(sent(fetchMock, "POST")).toEqual([
      {
        title: "How do I return an item?",
        body: "Within **30 days**.",
        category_id: shipping.id,
        // The empty second phrasing is left out; the others are trimmed.
        questions: ["Can I send it back?", "Return policy"],
        status: "published",
      },
    ]);
  });

  it("creates a category inline and selects it", async () => {
    const outdoors = category({ name: "Product Care" });
    const categories = [shipping];
    const fetchMock = signedIn({
      "GET /api/kb/categories": () => json(200, { categories }),
      "POST /api/kb/categories": () => {
        categories.push(outdoors);
        return json(201, { category: outdoors });
      },
    });
    const { user } = renderApp("/knowledge-base/new");

    await user.click(await screen.findByRole("button", { name: "New category" }));
    await user.type(screen.getByLabelText("New category name"), "Product Care{enter}");

    expect(await screen.findByText('Category "Product Care" created')).toBeInTheDocument();
    expect(sent(fetchMock, "POST")).toEqual([{ name: "Product Care" }]);
    // Enter added the category; it did not save the article.
    expect(fetchMock.mock.calls.some(([input]) => String(input).endsWith("/api/kb/articles"))).toBe(false);
    expect(screen.queryByLabelText("New category name")).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Category")).toHaveValue(outdoors.id));
  });

  it("says why a category could not be created", async () => {
    signedIn({
      "POST /api/kb/categories": () =>
        json(409, { error: 'A category named "Shipping" already exists.', code: "CONFLICT" }),
    });
    const { user } = renderApp("/knowledge-base/new");

    await user.click(await screen.findByRole("button", { name: "New category" }));
    await user.type(screen.getByLabelText("New category name"), "Shipping");
    await user.click(screen.getByRole("button", { name: "Add category" }));
    expect(await screen.findByText('A category named "Shipping" already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText("New category name")).toHaveAttribute("aria-invalid", "true");
  });

  it("says why the article could not be saved and stays", async () => {
    signedIn({
      "POST /api/kb/articles": () => json(400, { error: "Your trial has ended", code: "BAD_REQUEST" }),
    });
    const { user, router } = renderApp("/knowledge-base/new");

    await user.type(await screen.findByLabelText("Title"), "Draft");
    await user.click(screen.getByRole("button", { name: "Save draft" }));
    expect(await screen.findByText("Failed to save article: Your trial has ended")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/knowledge-base/new");
  });

  it("asks before leaving with unsaved changes", async () => {
    signedIn({
      "GET /api/kb/articles": () =>
        json(200, { articles: [], pagination: { page: 1, limit: 20, total: 0, pages: 0, next_cursor: null } }),
    });
    const { user, router } = renderApp("/knowledge-base/new");

    await user.type(await screen.findByLabelText("Title"), "Half written");
    await user.click(screen.getByRole("link", { name: "Back to Knowledge Base" }));
    const dialog = await findOpenDialog("alertdialog", { name: "Leave without saving?" });
    await user.click(within(dialog).getByRole("button", { name: "Keep editing" }));
    expect(router.state.location.pathname).toBe("/knowledge-base/new");
    expect(screen.getByLabelText("Title")).toHaveValue("Half written");

    await user.click(screen.getByRole("link", { name: "Back to Knowledge Base" }));
    await user.click(within(await findOpenDialog("alertdialog")).getByRole("button", { name: "Leave" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/knowledge-base"));
  });
});

describe("article editor: an existing article", () => {
  const live = article({
    title: "Do you ship internationally?",
    category_id: shipping.id,
    category_name: shipping.name,
  });

  function editing(extra: Parameters<typeof mockApi>[0] = {}) {
    return signedIn({
      [`GET /api/kb/articles/${live.id}`]: () => json(200, { article: live }),
      [`PUT /api/kb/articles/${live.id}`]: echo(live),
      ...extra,
    });
  }

  it("starts from the saved article and saves changes, keeping it published", async () => {
    const fetchMock = editing();
    const { user, router } = renderApp(`/knowledge-base/${live.id}/edit`);

    const title = await screen.findByLabelText("Title");
    expect(title).toHaveValue(live.title);
    expect(screen.getByLabelText("Body")).toHaveValue(live.body);
    expect(screen.getByLabelText("Alternative phrasing 1")).toHaveValue("Do you ship to Canada?");
    await waitFor(() => expect(screen.getByLabelText("Category")).toHaveValue(shipping.id));

    await user.clear(title);
    await user.type(title, "Shipping abroad");
    await user.click(screen.getByRole("button", { name: "Remove phrasing 1" }));
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(await screen.findByText("Article saved")).toBeInTheDocument();
    expect(sent(fetchMock, "PUT")).toEqual([
      { title: "Shipping abroad", body: live.body, category_id: shipping.id, questions: [], status: "published" },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/knowledge-base/${live.id}`));
  });

  it("unpublishes it", async () => {
    const fetchMock = editing();
    const { user } = renderApp(`/knowledge-base/${live.id}/edit`);

    await user.click(await screen.findByRole("button", { name: "Unpublish" }));
    expect(await screen.findByText("Article unpublished")).toBeInTheDocument();
    expect(sent(fetchMock, "PUT")[0]).toMatchObject({ status: "draft" });
  });

  it("deletes it after a confirmation", async () => {
    const fetchMock = editing({
      [`DELETE /api/kb/articles/${live.id}`]: () => json(200, { message: "Article deleted" }),
      "GET /api/kb/articles": () =>
        json(200, { articles: [], pagination: { page: 1, limit: 20, total: 0, pages: 0, next_cursor: null } }),
    });
    const { user, router } = renderApp(`/knowledge-base/${live.id}/edit`);

    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = await findOpenDialog("alertdialog", { name: "Delete article" });
    expect(dialog).toHaveTextContent(`Are you sure you want to delete the article "${live.title}"?`);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(false);

    await user.click(screen.getByRole("button", { name: "Delete" }));
    await user.click(within(await findOpenDialog("alertdialog")).getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Article deleted")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/knowledge-base"));
  });

  it("shows Article not found for an unknown or malformed id", async () => {
    signedIn({
      [`GET /api/kb/articles/${live.id}`]: () => json(404, { error: "Article not found", code: "NOT_FOUND" }),
    });
    renderApp(`/knowledge-base/${live.id}/edit`);
    expect(await screen.findByRole("heading", { name: "Article not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Knowledge Base" })).toHaveAttribute("href", "/knowledge-base");
  });
});
