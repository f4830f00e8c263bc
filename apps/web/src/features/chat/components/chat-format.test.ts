import { describe, expect, it } from "vitest";
import { formatDuration } from "./chat-format.ts";

describe("formatDuration", () => {
  it("reads as seconds, minutes, then hours and minutes", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(44.6)).toBe("45s");
    expect(formatDuration(120)).toBe("2m");
    expect(formatDuration(3599)).toBe("59m");
    expect(formatDuration(7200)).toBe("2h");
    expect(formatDuration(7500)).toBe("2h 5m");
    expect(formatDuration(-5)).toBe("0s");
  });
});
