import { reportTable } from "@cove/contract/reports.ts";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { calls, columnHeaders, json, type mockApi, renderApp, signedIn, testUser } from "../../../test/render-app.tsx";
import { emptyReportFixture, reportFixture } from "../test/report-fixtures.ts";

const grace = {
  id: "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f",
  first_name: "Grace",
  last_name: "Hopper",
  email: "grace@example.com",
  role: "agent",
  status: "active",
  last_login_at: null,
  avatar_url: null,
};

/** Signed in on the reports screen, with its answers beside `handlers`. */
function reportsApi(handlers: Parameters<typeof signedIn>[0] = {}, user = testUser) {
  return signedIn(
    {
      "GET /api/users": () => json(200, { users: [grace] }),
      "GET /api/reports": () => json(200, reportFixture()),
      ...handlers,
    },
    user,
  );
}

/** The query of every GET /api/reports call so far, in order. */
function reportQueries(fetchMock: ReturnType<typeof mockApi>): URLSearchParams[] {
  return calls(fetchMock)
    .filter((c) => c.startsWith("GET /api/reports?"))
    .map((c) => new URLSearchParams(c.slice(c.indexOf("?") + 1)));
}

const section = (name: string) => screen.getByRole("region", { name });

/** A headline figure's value, by its term. */
const figure = (card: HTMLElement, term: string) => within(card).getByText(term, { selector: "dt" }).nextSibling;

beforeEach(() => {
  // Only the clock is fixed (timers run for real): the organization's today is 2026-11-04 in Berlin.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-04T12:00:00Z"));
});
afterEach(() => vi.useRealTimers());

describe("the reports screen", () => {
  it("shows every section's figures from the report", async () => {
    reportsApi();
    renderApp("/reports");

    expect(await screen.findByRole("heading", { level: 1, name: "Reports" })).toBeInTheDocument();
    const volume = await screen.findByRole("region", { name: "Volume" });
    expect(figure(volume, "Created")).toHaveTextContent("9");
    expect(figure(volume, "Solved")).toHaveTextContent("5");
    expect(figure(volume, "Open at the end")).toHaveTextContent("6");
    expect(within(volume).getByRole("img", { name: "Tickets created per day, by channel" })).toBeInTheDocument();

    const speed = section("Speed");
    expect(figure(speed, "First response, median")).toHaveTextContent("42 min");
    expect(within(speed).getByText("First response, median", { selector: "dt" }).parentElement).toHaveTextContent(
      "In business hours: 30 min",
    );
    expect(figure(speed, "Resolution, median")).toHaveTextContent("24.0 h");
    expect(figure(speed, "Resolution, 90th percentile")).toHaveTextContent("3.0 days");

    const sla = section("SLA");
    // 5 of 7 first-response targets met overall (75% normal, 100% high, 0% urgent).
    expect(figure(sla, "First response met")).toHaveTextContent("71.4%");
    expect(figure(sla, "Resolution met")).toHaveTextContent("50%");
    const breached = within(sla).getByRole("link", { name: "#1042 Invoice shows the wrong address" });
    expect(breached).toHaveAttribute("href", "/tickets/5d0c1c38-6a0f-4f6e-9a53-0d6f0e0b7a01");
    // Due 10:00 UTC is 11:00 in Berlin.
    expect(within(sla).getByRole("table", { name: "Breached tickets, longest overdue first" })).toHaveTextContent(
      "Nov 2, 2026, 11:00 AM",
    );

    const satisfaction = section("Satisfaction");
    expect(figure(satisfaction, "CSAT")).toHaveTextContent("80%");
    expect(within(satisfaction).getByText("Response rate", { selector: "dt" }).parentElement).toHaveTextContent(
      "5 of 8 surveys",
    );
    expect(within(satisfaction).getByRole("table", { name: "CSAT by agent" })).toHaveTextContent("Grace Hopper3175%");

    const assistant = section("The assistant");
    expect(figure(assistant, "Chats")).toHaveTextContent("12");
    expect(figure(assistant, "Hand-off rate")).toHaveTextContent("25%");
    expect(within(assistant).getByText("Do you ship to Iceland?")).toBeInTheDocument();

    expect(within(section("Agents")).getByRole("img", { name: "Replies and tickets solved per agent" })).toBeVisible();
    expect(within(section("Tags")).getByRole("img", { name: "Tickets per tag" })).toBeVisible();

    const hours = within(section("Busiest hours")).getByRole("table", { name: "New tickets by weekday and hour" });
    const monday = within(hours).getByRole("rowheader", { name: "Monday" }).closest("tr");
    expect(within(monday as HTMLElement).getAllByRole("cell")[9]).toHaveTextContent("7");
    expect(screen.getByText(/days and hours in Europe\/Berlin/)).toBeInTheDocument();

    // Every figure says how it is counted.
    expect(screen.getAllByText("How is this counted?")).toHaveLength(8);
    expect(
      within(speed).getByText(/Automatic replies, internal notes and the assistant's answers do not count/),
    ).toBeInTheDocument();
  });

  // Each change redraws eight sections' charts in jsdom: these two tests get more time than the default 15 s.
  it("asks for the last 30 days by day at first, and asks again with each range and grouping", async () => {
    const fetchMock = reportsApi();
    const { user, router } = renderApp("/reports");
    await screen.findByRole("region", { name: "Volume" });

    expect(Object.fromEntries(reportQueries(fetchMock).at(-1)!)).toEqual({
      from: "2026-10-06",
      to: "2026-11-04",
      group: "day",
    });

    await user.selectOptions(screen.getByLabelText("Date range"), "Last 7 days");
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)?.get("from")).toBe("2026-10-29"));
    await user.selectOptions(screen.getByLabelText("Date range"), "Last 90 days");
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)?.get("from")).toBe("2026-08-07"));
    await user.selectOptions(screen.getByLabelText("Date range"), "This month");
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)?.get("from")).toBe("2026-11-01"));
    await user.selectOptions(screen.getByLabelText("Group by"), "Week");
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)?.get("group")).toBe("week"));
    await user.selectOptions(screen.getByLabelText("Date range"), "Today");
    await waitFor(() =>
      expect(Object.fromEntries(reportQueries(fetchMock).at(-1)!)).toEqual({
        from: "2026-11-04",
        to: "2026-11-04",
        group: "week",
      }),
    );
    expect(router.state.location.search).toBe("?range=today&group=week");
  }, 40_000);

  it("asks again with each filter, keeps them in the address, and clears them", async () => {
    const fetchMock = reportsApi();
    const { user, router } = renderApp("/reports?range=last_7_days");
    await screen.findByRole("region", { name: "Volume" });

    await user.selectOptions(screen.getByLabelText("Channel"), "Email");
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)?.get("channel")).toBe("email"));
    await user.selectOptions(screen.getByLabelText("Agent"), "Grace Hopper");
    await user.selectOptions(screen.getByLabelText("Priority"), "Urgent");
    await user.selectOptions(screen.getByLabelText("Tag"), "billing");
    await waitFor(() =>
      expect(Object.fromEntries(reportQueries(fetchMock).at(-1)!)).toEqual({
        from: "2026-10-29",
        to: "2026-11-04",
        group: "day",
        channel: "email",
        agent: grace.id,
        priority: "urgent",
        tag: "billing",
      }),
    );
    // The address holds the view, so the link reproduces it.
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      range: "last_7_days",
      channel: "email",
      agent: grace.id,
      priority: "urgent",
      tag: "billing",
    });

    await user.click(screen.getByRole("button", { name: "Clear filters" }));
    await waitFor(() => expect(router.state.location.search).toBe("?range=last_7_days"));
    for (const filter of ["Channel", "Agent", "Priority", "Tag"]) expect(screen.getByLabelText(filter)).toHaveValue("");
    // The unfiltered answer was asked for first and is still fresh: no second request for it.
    expect(reportQueries(fetchMock).filter((q) => !q.has("channel"))).toHaveLength(1);
  }, 40_000);

  it("takes a custom range from two date inputs, and explains one it cannot show", async () => {
    const fetchMock = reportsApi();
    const { user, router } = renderApp("/reports?range=last_7_days");
    await screen.findByRole("region", { name: "Volume" });

    await user.selectOptions(screen.getByLabelText("Date range"), "Custom");
    // It starts from the days on screen.
    expect(screen.getByLabelText("From")).toHaveValue("2026-10-29");
    expect(screen.getByLabelText("To")).toHaveValue("2026-11-04");

    await user.clear(screen.getByLabelText("From"));
    await user.type(screen.getByLabelText("From"), "2026-11-10");
    expect(screen.getByText("The first day must be on or before the last day.")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("From"));
    await user.type(screen.getByLabelText("From"), "2026-09-15");
    await waitFor(() =>
      expect(Object.fromEntries(reportQueries(fetchMock).at(-1)!)).toEqual({
        from: "2026-09-15",
        to: "2026-11-04",
        group: "day",
      }),
    );
    expect(router.state.location.search).toBe("?range=custom&from=2026-09-15&to=2026-11-04");
  });

  it("opens a shared link on the view it names, and ignores what the API would refuse", async () => {
    const fetchMock = reportsApi();
    renderApp("/reports?range=custom&from=2026-01-01&to=2026-01-31&group=month&channel=chat&priority=bogus&agent=42");
    await screen.findByRole("region", { name: "Volume" });
    expect(Object.fromEntries(reportQueries(fetchMock)[0]!)).toEqual({
      from: "2026-01-01",
      to: "2026-01-31",
      group: "month",
      channel: "chat",
    });
    expect(screen.getByLabelText("Date range")).toHaveValue("custom");
    expect(screen.getByLabelText("Channel")).toHaveValue("chat");
    expect(screen.getByLabelText("Priority")).toHaveValue("");
  });

  it("shows the same numbers in each table view as its CSV holds", async () => {
    reportsApi();
    const { user } = renderApp("/reports");
    const fixture = reportFixture();
    for (const [name, key] of [
      ["Volume", "volume"],
      ["Speed", "speed"],
      ["Satisfaction", "satisfaction"],
      ["Agents", "agents"],
      ["Tags", "tags"],
    ] as const) {
      const card = await screen.findByRole("region", { name });
      const toggle = within(card).getByRole("button", { name: `Table view of ${name}` });
      expect(toggle).toHaveAttribute("aria-pressed", "false");
      await user.click(toggle);
      expect(toggle).toHaveAttribute("aria-pressed", "true");
      const table = within(card).getAllByRole("table")[0]!;
      expect(table.querySelector("caption")).toHaveTextContent(name === "Tags" ? "Tickets per tag" : name);
      const expected = reportTable(fixture, key);
      // Each header is named as the CSV's column (a long one shows a shorter label, the full name is its aria-label).
      const headers = within(table).getAllByRole("columnheader");
      expect(headers.map((h) => h.getAttribute("aria-label") ?? h.textContent)).toEqual(expected.columns);
      const rows = within(table).getAllByRole("row").slice(1);
      expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual(expected.rows);
    }
    // The agents' long column names read short on screen, whole in the tooltip and to a screen reader.
    const agents = within(section("Agents")).getByRole("table");
    expect(columnHeaders(agents)).toEqual([
      "Agent",
      "Email",
      "Replies",
      "Solved",
      "First response (min)",
      "In business hours (min)",
      "Good",
      "Bad",
      "CSAT",
    ]);
    const business = within(agents).getByRole("columnheader", { name: "Median first response (business min)" });
    expect(business).toHaveAttribute("title", "Median first response (business min)");
    const volume = section("Volume");
    expect(within(volume).queryByRole("img")).not.toBeInTheDocument();
    await user.click(within(volume).getByRole("button", { name: "Table view of Volume" }));
    expect(within(volume).getAllByRole("img").length).toBeGreaterThan(0);
  });

  it("downloads a section's CSV and the tickets CSV with the screen's query and the session's token", async () => {
    const created = vi.fn(() => "blob:csv");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const csv = (name: string) => () =>
      new Response("Priority,First response met\r\nnormal,3\r\n", {
        status: 200,
        headers: { "Content-Type": "text/csv", "Content-Disposition": `attachment; filename="${name}"` },
      });
    const fetchMock = reportsApi({
      "GET /api/reports/sla.csv": csv("sla.csv"),
      "GET /api/reports/tickets.csv": csv("tickets.csv"),
    });
    const { user } = renderApp("/reports?range=last_7_days&channel=email");
    const sla = await screen.findByRole("region", { name: "SLA" });

    await user.click(within(sla).getByRole("button", { name: "Download CSV of SLA" }));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
    const slaCall = fetchMock.mock.calls.find(([input]) => String(input).startsWith("/api/reports/sla.csv"));
    expect(String(slaCall?.[0])).toBe("/api/reports/sla.csv?from=2026-10-29&to=2026-11-04&group=day&channel=email");
    expect(new Headers(slaCall?.[1]?.headers).get("Authorization")).toBe("Bearer stored-token");

    await user.click(screen.getByRole("button", { name: "Download tickets (CSV)" }));
    await waitFor(() => expect(clicked).toHaveBeenCalledTimes(2));
    expect(calls(fetchMock)).toContain(
      "GET /api/reports/tickets.csv?from=2026-10-29&to=2026-11-04&group=day&channel=email",
    );
    expect(created).toHaveBeenCalledTimes(2);
    clicked.mockRestore();
  });

  it("says so in a toast when a CSV cannot be downloaded", async () => {
    reportsApi({ "GET /api/reports/tags.csv": () => json(500, { error: "Boom", code: "INTERNAL" }) });
    const { user } = renderApp("/reports");
    const tags = await screen.findByRole("region", { name: "Tags" });
    await user.click(within(tags).getByRole("button", { name: "Download CSV of Tags" }));
    expect(await screen.findByText("The Tags CSV could not be downloaded")).toBeInTheDocument();
    expect(screen.getByText("The CSV could not be downloaded. Try again in a moment.")).toBeInTheDocument();
  });

  it("shows an empty state when the range holds nothing, with the filters still there", async () => {
    reportsApi({ "GET /api/reports": () => json(200, emptyReportFixture()) });
    renderApp("/reports?tag=billing");
    expect(await screen.findByRole("heading", { name: "Nothing to report for these days" })).toBeInTheDocument();
    expect(screen.getByText(/No tickets or chats match these filters/)).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Volume" })).not.toBeInTheDocument();
    expect(screen.getByLabelText("Tag")).toHaveValue("billing");
  });

  it("says so in place of a chart that has nothing to draw, in the chart and in the table view", async () => {
    const base = reportFixture();
    const none = {
      count: 0,
      median_minutes: null,
      p90_minutes: null,
      median_business_minutes: null,
      p90_business_minutes: null,
    };
    const unsolved = reportFixture({
      speed: {
        ...base.speed,
        resolution: none,
        rows: base.speed.rows.map((r) => ({ ...r, resolution: none })),
      },
    });
    reportsApi({ "GET /api/reports": () => json(200, unsolved) });
    const { user } = renderApp("/reports");
    const speed = await screen.findByRole("region", { name: "Speed" });
    // The first-response chart is drawn; the resolution chart's empty axes are replaced by a sentence.
    expect(
      within(speed).getByRole("img", { name: "Median first response time per day, in hours" }),
    ).toBeInTheDocument();
    expect(within(speed).queryByRole("img", { name: /resolution time/ })).not.toBeInTheDocument();
    expect(within(speed).getByText("No tickets solved in this range.")).toBeInTheDocument();
    expect(within(speed).queryByText("No first responses in this range.")).not.toBeInTheDocument();

    await user.click(within(speed).getByRole("button", { name: "Table view of Speed" }));
    expect(within(speed).getByRole("table")).toBeInTheDocument();
    expect(within(speed).getByText("No tickets solved in this range.")).toBeInTheDocument();
  });

  it("shows the server's reason and a way to try again when the report cannot be loaded", async () => {
    let fail = true;
    reportsApi({
      "GET /api/reports": () =>
        fail
          ? json(400, { error: "A report covers at most 366 days", code: "VALIDATION_ERROR" })
          : json(200, reportFixture()),
    });
    const { user } = renderApp("/reports");
    expect(await screen.findByText("Error loading reports")).toBeInTheDocument();
    expect(screen.getByText("A report covers at most 366 days")).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("region", { name: "Volume" })).toBeInTheDocument();
  });

  it("counts a preset's days in the organization's time zone, not the browser's", async () => {
    // 23:30 UTC on Nov 4 is already Nov 5 in Tokyo.
    vi.setSystemTime(new Date("2026-11-04T23:30:00Z"));
    const fetchMock = reportsApi({ "GET /api/reports": () => json(200, reportFixture({ timezone: "Asia/Tokyo" })) });
    renderApp("/reports?range=today");
    await screen.findByRole("region", { name: "Volume" });
    await waitFor(() => expect(reportQueries(fetchMock).at(-1)?.get("from")).toBe("2026-11-05"));
    expect(reportQueries(fetchMock).at(-1)?.get("to")).toBe("2026-11-05");
  });
});

describe("who sees reports", () => {
  it("is in an agent's sidebar after Dashboard, and opens for them", async () => {
    const agent = { ...testUser, role: "agent" as const };
    reportsApi({}, agent);
    renderApp("/reports");
    expect(await screen.findByRole("region", { name: "Volume" })).toBeInTheDocument();
    const nav = screen.getAllByRole("navigation", { name: "Main" })[0]!;
    const names = within(nav)
      .getAllByRole("link")
      .map((l) => l.textContent);
    expect(names.slice(0, 3)).toEqual(["Dashboard", "Reports", "Tickets"]);
    expect(within(nav).getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");
  });

  it("is in an admin's sidebar too", async () => {
    reportsApi();
    renderApp("/dashboard");
    const nav = (await screen.findAllByRole("navigation", { name: "Main" }))[0]!;
    expect(within(nav).getByRole("link", { name: "Reports" })).toHaveAttribute("href", "/reports");
  });

  it("says why when the server refuses the member", async () => {
    reportsApi({
      "GET /api/reports": () => json(403, { error: "Only agents and admins can see reports.", code: "FORBIDDEN" }),
    });
    renderApp("/reports");
    expect(await screen.findByText("Error loading reports")).toBeInTheDocument();
    expect(screen.getByText("Only agents and admins can see reports.")).toBeInTheDocument();
  });
});
