import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { calls, json, mockApi, renderApp } from "../../../test/render-app.tsx";
import { helpArticle, helpCenter } from "../test/kb-fixtures.ts";

const center = () => json(200, helpCenter);

describe("public help center", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("shows the organization's articles by category to a visitor who is not signed in", async () => {
    const fetchMock = mockApi({ "GET /api/public/acme/kb": center });
    renderApp("/help/acme");

    expect(await screen.findByRole("heading", { level: 1, name: "How can we help?" })).toBeInTheDocument();
    expect(screen.getAllByText("Acme Outdoor Co.").length).toBeGreaterThan(0);
    const shipping = screen.getByRole("region", { name: "Shipping & Delivery" });
    expect(within(shipping).getByRole("link", { name: "Do you ship internationally?" })).toHaveAttribute(
      "href",
      "/help/acme/articles/do-you-ship-internationally",
    );
    expect(within(screen.getByRole("region", { name: "More articles" })).getByRole("link")).toHaveTextContent(
      "About us",
    );
    // Nothing asked of the staff API: no sign-in involved.
    expect(calls(fetchMock).every((c) => c.startsWith("GET /api/public/"))).toBe(true);
  });

  it("searches as the visitor types and lists the results with an excerpt", async () => {
    const fetchMock = mockApi({
      "GET /api/public/acme/kb": center,
      "GET /api/public/acme/kb/search": () =>
        json(200, {
          results: [
            {
              id: "00000000-0000-4000-9000-00000000abcd",
              title: "Do you ship internationally?",
              slug: "do-you-ship-internationally",
              category_name: "Shipping & Delivery",
              excerpt: "Yes. We ship to Canada, the United Kingdom…",
            },
          ],
        }),
    });
    const { user, router } = renderApp("/help/acme");

    await user.type(await screen.findByRole("searchbox"), "ship to canada");
    await waitFor(() => expect(router.state.location.search).toBe("?q=ship+to+canada"));
    expect(await screen.findByRole("heading", { name: "1 result for “ship to canada”" })).toBeInTheDocument();
    expect(screen.getByText("Yes. We ship to Canada, the United Kingdom…")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Do you ship internationally?" })).toHaveAttribute(
      "href",
      "/help/acme/articles/do-you-ship-internationally",
    );
    // The query is written as forms write it (URLSearchParams: a space is "+"), which the API reads as a space.
    expect(calls(fetchMock)).toContain("GET /api/public/acme/kb/search?q=ship+to+canada");
  });

  it("says when a search finds nothing", async () => {
    mockApi({ "GET /api/public/acme/kb": center, "GET /api/public/acme/kb/search": () => json(200, { results: [] }) });
    renderApp("/help/acme?q=kayak");
    expect(await screen.findByRole("heading", { name: "No articles match “kayak”" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Browse all topics" })).toHaveAttribute("href", "/help/acme");
  });

  it("leads with the organization's logo and colour, in text that reads on it", async () => {
    mockApi({
      "GET /api/public/acme/kb": center,
      "GET /api/public/acme/branding": () =>
        json(200, {
          name: "Acme Outdoor Co.",
          slug: "acme",
          brand_color: "#fde047",
          logo_url: "/api/public/acme/logo?v=1",
        }),
    });
    renderApp("/help/acme");
    await screen.findByRole("heading", { level: 1, name: "How can we help?" });
    const header = screen.getByTestId("help-center-header");
    expect(within(header).getByRole("img", { name: "Acme Outdoor Co. logo" })).toHaveAttribute(
      "src",
      "/api/public/acme/logo?v=1",
    );
    const frame = header.closest<HTMLElement>("[style]");
    expect(frame?.style.getPropertyValue("--brand")).toBe("#fde047");
    // A light colour: black text on it, and links on white darkened until they read.
    expect(frame?.style.getPropertyValue("--brand-ink")).toBe("#000000");
    expect(frame?.style.getPropertyValue("--brand-text")).not.toBe("#fde047");
  });

  it("says Help center not found for an unknown organization", async () => {
    mockApi({});
    renderApp("/help/nobody");
    expect(await screen.findByRole("heading", { name: "Help center not found" })).toBeInTheDocument();
  });
});

describe("help center article", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("shows the article rendered safely, its category and related articles", async () => {
    mockApi({
      "GET /api/public/acme/kb": center,
      "GET /api/public/acme/kb/articles/do-you-ship-internationally": () => json(200, helpArticle()),
    });
    renderApp("/help/acme/articles/do-you-ship-internationally");

    const article = await screen.findByRole("article", { name: "Do you ship internationally?" });
    expect(within(article).getByText("Canada").tagName).toBe("STRONG");
    expect(article.querySelector("script")).toBeNull();
    expect(article).toHaveTextContent("<script>alert(1)</script>");
    expect(within(article).queryByRole("link", { name: "Bad" })).toBeNull();
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(within(crumbs).getByRole("link", { name: "Shipping & Delivery" })).toHaveAttribute(
      "href",
      "/help/acme#category-shipping-and-delivery",
    );
    expect(screen.getByRole("link", { name: "Where is my order?" })).toHaveAttribute(
      "href",
      "/help/acme/articles/where-is-my-order",
    );
  });

  it("asks Was this helpful?, sends the vote once and thanks the visitor", async () => {
    const fetchMock = mockApi({
      "GET /api/public/acme/kb": center,
      "GET /api/public/acme/kb/articles/do-you-ship-internationally": () => json(200, helpArticle()),
      "POST /api/public/acme/kb/articles/do-you-ship-internationally/feedback": () =>
        json(200, { message: "Thanks for your feedback!" }),
    });
    const { user, unmount } = renderApp("/help/acme/articles/do-you-ship-internationally");

    const feedback = await screen.findByRole("region", { name: "Feedback" });
    expect(feedback).toHaveTextContent("Was this helpful?");
    await user.click(within(feedback).getByRole("button", { name: "Yes" }));
    expect(await within(feedback).findByText("Thanks for your feedback!")).toBeInTheDocument();
    const votes = fetchMock.mock.calls.filter(([, init]) => init?.method === "POST");
    expect(votes.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ helpful: true }]);

    // Coming back to the article in this browser does not ask again.
    unmount();
    renderApp("/help/acme/articles/do-you-ship-internationally");
    expect(await screen.findByText("Thanks for your feedback!")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Yes" })).not.toBeInTheDocument();
  });

  it("says Article not found with a way back to the help center", async () => {
    mockApi({
      "GET /api/public/acme/kb": center,
      "GET /api/public/acme/kb/articles/gone": () => json(404, { error: "Article not found", code: "NOT_FOUND" }),
    });
    renderApp("/help/acme/articles/gone");
    expect(await screen.findByRole("heading", { name: "Article not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the help center" })).toHaveAttribute("href", "/help/acme");
  });
});
