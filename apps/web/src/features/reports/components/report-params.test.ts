import { describe, expect, it } from "vitest";
import { customRangeError, readView, reportParams, toSearch, writeView } from "./report-params.ts";
import { addDays, formatRange, isDay, presetDays, todayIn } from "./report-range.ts";

describe("report ranges", () => {
  it("counts presets back from the organization's today, both days included", () => {
    expect(presetDays("today", "2026-03-29")).toEqual({ from: "2026-03-29", to: "2026-03-29" });
    expect(presetDays("last_7_days", "2026-03-29")).toEqual({ from: "2026-03-23", to: "2026-03-29" });
    expect(presetDays("last_30_days", "2026-03-01")).toEqual({ from: "2026-01-31", to: "2026-03-01" });
    expect(presetDays("last_90_days", "2026-11-29")).toEqual({ from: "2026-09-01", to: "2026-11-29" });
    expect(presetDays("this_month", "2026-02-28")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
  });

  it("reads today in the organization's zone, across a change of clocks and a date line", () => {
    // 2026-03-29 is the night Berlin moves to summer time (02:00 -> 03:00).
    expect(todayIn("Europe/Berlin", new Date("2026-03-28T22:30:00Z"))).toBe("2026-03-28");
    expect(todayIn("Europe/Berlin", new Date("2026-03-28T23:30:00Z"))).toBe("2026-03-29");
    expect(todayIn("Europe/Berlin", new Date("2026-03-29T21:59:00Z"))).toBe("2026-03-29");
    expect(todayIn("Europe/Berlin", new Date("2026-03-29T22:00:00Z"))).toBe("2026-03-30");
    expect(todayIn("Pacific/Kiritimati", new Date("2026-11-04T12:00:00Z"))).toBe("2026-11-05");
    expect(todayIn("America/Los_Angeles", new Date("2026-11-04T06:00:00Z"))).toBe("2026-11-03");
    // A zone the browser does not know falls back to UTC rather than breaking the screen.
    expect(todayIn("Not/AZone", new Date("2026-11-04T23:00:00Z"))).toBe("2026-11-04");
  });

  it("adds calendar days without a change of clocks moving them", () => {
    expect(addDays("2026-03-29", -1)).toBe("2026-03-28");
    expect(addDays("2026-10-25", 1)).toBe("2026-10-26");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });

  it("knows a real day, and writes ranges for people", () => {
    expect(isDay("2026-02-28")).toBe(true);
    expect(isDay("2026-02-30")).toBe(false);
    expect(isDay("2026-2-3")).toBe(false);
    expect(isDay(null)).toBe(false);
    expect(formatRange("2026-11-03", "2026-11-03")).toBe("Nov 3, 2026");
    expect(formatRange("2026-10-06", "2026-11-04")).toBe("Oct 6, 2026 – Nov 4, 2026");
  });

  it("explains a custom range the API would refuse", () => {
    expect(customRangeError("2026-01-01", "2026-12-31")).toBeNull();
    expect(customRangeError("2026-01-01", "2027-01-01")).toBeNull(); // 366 days
    expect(customRangeError("2026-01-01", "2027-01-02")).toBe("A report covers at most 366 days.");
    expect(customRangeError("2026-02-02", "2026-02-01")).toBe("The first day must be on or before the last day.");
    expect(customRangeError("", "2026-02-01")).toBe("Choose both days.");
  });
});

describe("the view in the address", () => {
  it("leaves defaults out and round-trips every filter", () => {
    const view = readView(new URLSearchParams());
    expect(view).toEqual({ range: "last_30_days", group: "day" });
    expect(writeView(view).toString()).toBe("");
    const full =
      "range=custom&from=2026-01-01&to=2026-01-31&group=month&channel=portal&agent=9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f&priority=high&tag=billing";
    expect(writeView(readView(new URLSearchParams(full))).toString()).toBe(full);
  });

  it("drops what the API would refuse instead of breaking the screen", () => {
    const view = readView(
      new URLSearchParams(
        "range=custom&from=2026-02-30&to=2026-03-01&group=year&channel=fax&agent=1&priority=x&tag=%20",
      ),
    );
    expect(view).toEqual({ range: "last_30_days", group: "day" });
    expect(readView(new URLSearchParams("range=custom&from=2026-03-02&to=2026-03-01")).range).toBe("last_30_days");
  });

  it("turns a view into the API's query, in a fixed order", () => {
    const view = readView(new URLSearchParams("tag=vip&range=last_7_days&channel=email"));
    const params = reportParams(view, "2026-11-04");
    expect(toSearch(params)).toBe("from=2026-10-29&to=2026-11-04&group=day&channel=email&tag=vip");
  });
});
