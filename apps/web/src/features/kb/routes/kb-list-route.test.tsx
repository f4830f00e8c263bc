import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { calls, columnHeaders, json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { articleSummary, category, listAnswer } from "../test/kb-fixtures.ts";

const shipping = category({ name: "Shipping & Delivery" });
const billing = category({ name: "Billing" });

function signedIn(list: () => Response) {
  storeSession();
  return mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    "GET /api/kb/categories": () => json(200, { categories: [shipping, billing] }),
    "GET /api/kb/articles": list,
  });
}

const articleCalls = (fetchMock: ReturnType<typeof mockApi>) =>
  calls(fetchMock).filter((c) => c.startsWith("GET /api/kb/articles"));

describe("knowledge base list", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("shows each article's category, status, views and helpful votes, and where the page sits", async () => {
    const rows = [
      articleSummary({ title: "Do you ship internationally?", category_id: shipping.id, category_name: shipping.name }),
      articleSummary({
        title: "Holiday deadlines",
        status: "draft",
        view_count: 0,
        helpful_count: 0,
        not_helpful_count: 0,
        published_at: null,
      }),
    ];
    const fetchMock = signedIn(() => json(200, listAnswer(rows, { page: 2, total: 22 })));
    renderApp("/knowledge-base?page=2");

    const table = await screen.findByRole("table", { name: "Articles" });
    expect(columnHeaders(table)).toEqual(["Title", "Category", "Status", "Views", "Helpful", "Updated"]);
    const [first, second] = within(table).getAllByRole("row").slice(1);
    expect(within(first!).getByRole("link", { name: "Do you ship internationally?" })).toHaveAttribute(
      "href",
      `/knowledge-base/${rows[0]!.id}`,
    );
    expect(first).toHaveTextContent("Shipping & Delivery");
    expect(first).toHaveTextContent("Published");
    expect(first).toHaveTextContent("302");
    expect(first).toHaveTextContent("71 of 75");
    expect(second).toHaveTextContent("Draft");
    expect(second).toHaveTextContent("None");
    expect(second).toHaveTextContent("No votes");
    expect(screen.getByText("Showing 21 to 22 of 22 articles")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
    expect(screen.getByRole("link", { name: "New Article" })).toHaveAttribute("href", "/knowledge-base/new");
    expect(screen.getByRole("link", { name: "View help center" })).toHaveAttribute(
      "href",
      `/help/${testUser.organizationSlug}`,
    );
    expect(articleCalls(fetchMock)).toEqual(["GET /api/kb/articles?page=2&limit=20"]);
  });

  it("takes its filters from the address and offers the organization's categories", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([articleSummary()])));
    renderApp(`/knowledge-base?category=${shipping.id}&status=draft&search=canada`);

    await screen.findByRole("table", { name: "Articles" });
    const select = screen.getByLabelText("Category");
    await waitFor(() => expect(select).toHaveValue(shipping.id));
    expect(
      within(select)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["All categories", "Shipping & Delivery", "Billing", "No category"]);
    expect(screen.getByLabelText("Status")).toHaveValue("draft");
    expect(screen.getByLabelText("Search")).toHaveValue("canada");
    expect(articleCalls(fetchMock)).toEqual([
      `GET /api/kb/articles?page=1&limit=20&search=canada&category_id=${shipping.id}&status=draft`,
    ]);
  });

  it("puts a changed filter in the address and starts again from page 1", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([articleSummary()], { total: 60, page: 3 })));
    const { user, router } = renderApp("/knowledge-base?page=3");
    await screen.findByRole("table", { name: "Articles" });

    await user.selectOptions(screen.getByLabelText("Status"), "Published");
    await waitFor(() => expect(router.state.location.search).toBe("?status=published"));
    await waitFor(() =>
      expect(articleCalls(fetchMock)).toContain("GET /api/kb/articles?page=1&limit=20&status=published"),
    );
    await user.selectOptions(screen.getByLabelText("Category"), "No category");
    await waitFor(() => expect(router.state.location.search).toBe("?category=none&status=published"));
  });

  it("searches once typing pauses", async () => {
    const fetchMock = signedIn(() => json(200, listAnswer([articleSummary()])));
    const { user, router } = renderApp("/knowledge-base");
    await screen.findByRole("table", { name: "Articles" });

    await user.type(screen.getByLabelText("Search"), "return label");
    await waitFor(() => expect(router.state.location.search).toBe("?search=return+label"));
    const searches = () => articleCalls(fetchMock).filter((c) => c.includes("search="));
    await waitFor(() => expect(searches()).toEqual(["GET /api/kb/articles?page=1&limit=20&search=return+label"]));
  });

  it("shows an empty knowledge base with a way to write the first article", async () => {
    signedIn(() => json(200, listAnswer([])));
    renderApp("/knowledge-base");

    expect(await screen.findByRole("heading", { name: "No articles yet" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Write your first article" })).toHaveAttribute(
      "href",
      "/knowledge-base/new",
    );
  });

  it("says when nothing matches and clears the filters", async () => {
    signedIn(() => json(200, listAnswer([])));
    const { user, router } = renderApp("/knowledge-base?status=draft");

    expect(await screen.findByRole("heading", { name: "No articles match these filters" })).toBeInTheDocument();
    await user.click(screen.getAllByRole("button", { name: "Clear filters" })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });

  it("says Error loading articles with the server's message", async () => {
    signedIn(() => json(500, { error: "The database is unavailable", code: "INTERNAL_ERROR" }));
    renderApp("/knowledge-base");

    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Error loading articles");
    expect(alert).toHaveTextContent("The database is unavailable");
  });
});
