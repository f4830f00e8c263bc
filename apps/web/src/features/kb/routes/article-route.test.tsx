import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { json, mockApi, renderApp, storeSession, testUser } from "../../../test/render-app.tsx";
import { article } from "../test/kb-fixtures.ts";

function showing(body: ReturnType<typeof article>) {
  storeSession();
  mockApi({
    "GET /api/auth/me": () => json(200, { user: testUser }),
    [`GET /api/kb/articles/${body.id}`]: () => json(200, { article: body }),
  });
  return renderApp(`/knowledge-base/${body.id}`);
}

describe("article reader view", () => {
  it("shows the article as readers see it, with Edit, the help center link and Back to Knowledge Base", async () => {
    const live = article({ category_name: "Shipping & Delivery" });
    showing(live);

    const view = await screen.findByRole("article", { name: live.title });
    expect(within(view).getByRole("heading", { level: 2, name: "Times" })).toBeInTheDocument();
    expect(within(view).getByText("Canada").tagName).toBe("STRONG");
    expect(view).toHaveTextContent("Published");
    expect(view).toHaveTextContent("Shipping & Delivery");
    expect(view).toHaveTextContent("Written by Ada Lovelace");
    expect(view).toHaveTextContent("71 of 75");
    expect(screen.getByRole("region", { name: "Also answers" })).toHaveTextContent("Do you ship to Canada?");
    expect(screen.getByRole("link", { name: "Edit" })).toHaveAttribute("href", `/knowledge-base/${live.id}/edit`);
    expect(screen.getByRole("link", { name: "View in help center" })).toHaveAttribute(
      "href",
      `/help/${testUser.organizationSlug}/articles/${live.slug}`,
    );
    expect(screen.getByRole("link", { name: "Back to Knowledge Base" })).toHaveAttribute("href", "/knowledge-base");
  });

  it("offers no help center link for a draft", async () => {
    const draft = article({ status: "draft", published_at: null });
    showing(draft);
    expect(await screen.findByRole("article", { name: draft.title })).toHaveTextContent("Draft");
    expect(screen.queryByRole("link", { name: "View in help center" })).not.toBeInTheDocument();
  });
});
