import { describe, expect, it } from "vitest";
import { isoInstant } from "../../src/platform/instants.ts";

describe("isoInstant", () => {
  it("writes PostgreSQL's UTC text as Date's toISOString would, without a Date", () => {
    const texts = [
      "2026-11-30 12:34:56+00",
      "2026-11-30 12:34:56.1+00",
      "2026-11-30 12:34:56.12+00",
      "2026-11-30 12:34:56.123+00",
      "2026-11-30 12:34:56.1234+00",
      "2026-11-30 12:34:56.999999+00",
      "2026-11-30 23:59:59.000001+00",
      "2026-03-29 01:00:00.5+00",
      "1970-01-01 00:00:00+00",
      "2024-02-29 00:00:00.000100+00",
      // As json_build_object writes a timestamptz.
      "2026-11-30T12:34:56.654321+00:00",
      "2026-11-30T12:34:56+00:00",
    ];
    for (const text of texts) expect(isoInstant(text), text).toBe(new Date(text).toISOString());
    expect(isoInstant("2026-11-30 12:34:56.999999+00")).toBe("2026-11-30T12:34:56.999Z");
    expect(isoInstant("2026-11-30T12:34:56+00:00")).toBe("2026-11-30T12:34:56.000Z");
  });

  it("reads other offsets and Dates through Date", () => {
    expect(isoInstant("2026-11-30 13:34:56.5+01")).toBe("2026-11-30T12:34:56.500Z");
    expect(isoInstant("2026-11-30 07:04:56-05:30")).toBe("2026-11-30T12:34:56.000Z");
    expect(isoInstant(new Date("2026-11-30T12:34:56.789Z"))).toBe("2026-11-30T12:34:56.789Z");
  });
});
