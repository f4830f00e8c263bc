import { screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { json, mockApi, renderApp } from "../../../test/render-app.tsx";
import { openSurvey, organization } from "../test/portal-fixtures.ts";

describe("the emailed survey page", () => {
  beforeEach(() => vi.stubGlobal("scrollTo", vi.fn()));

  it("asks the question for the solved ticket, preselects the link's answer, and sends it with the token", async () => {
    const fetchMock = mockApi({
      "GET /api/public/acme/portal": () => json(200, { organization }),
      "POST /api/portal/satisfaction/lookup": () =>
        json(200, {
          organization: { name: organization.name, slug: "acme" },
          ticket: { ticket_number: 19, subject: "Sleeping bag <zipper>" },
          satisfaction: openSurvey,
        }),
      "POST /api/portal/satisfaction": (init) =>
        json(200, {
          satisfaction: { ...openSurvey, ...JSON.parse(String(init?.body)) },
          message: "Thank you for your feedback!",
        }),
    });
    const { user } = renderApp("/portal/acme/satisfaction?token=survey-token-0123456789abc&rating=bad");
    expect(await screen.findByText("“Sleeping bag <zipper>”")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Bad" })).toHaveAttribute("aria-pressed", "true");
    await user.click(screen.getByRole("button", { name: "Send rating" }));
    expect(await screen.findByText("Thank you for your feedback!")).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([input]) => String(input) === "/api/portal/satisfaction");
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      token: "survey-token-0123456789abc",
      rating: "bad",
      comment: null,
    });
  });

  it("says when a link does not work", async () => {
    mockApi({
      "GET /api/public/acme/portal": () => json(200, { organization }),
      "POST /api/portal/satisfaction/lookup": () => json(404, { error: "Survey not found", code: "NOT_FOUND" }),
    });
    renderApp("/portal/acme/satisfaction?token=gone-token-0123456789abcdef");
    expect(await screen.findByRole("heading", { name: "This survey link does not work" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the support portal" })).toHaveAttribute("href", "/portal/acme");
  });
});
