import {
  brandPalette,
  brandTextOnWhite,
  contrastRatio,
  DEFAULT_BRAND_COLOR,
  inkOn,
  safeBrandColor,
} from "@cove/contract/brand-colors.ts";
import { describe, expect, it } from "vitest";

describe("brand colours", () => {
  it("takes only a plain #rrggbb into a style; anything else is the default", () => {
    expect(safeBrandColor("#0F766E")).toBe("#0f766e");
    for (const bad of ["red", "#fff", "#0f766e;x:y", "url(javascript:1)", "#0f766e ", "", null, 42]) {
      expect(safeBrandColor(bad), String(bad)).toBe(DEFAULT_BRAND_COLOR);
    }
    expect(brandPalette("expression(alert(1))")).toEqual({ color: "#4f46e5", ink: "#ffffff", text: "#4f46e5" });
  });

  it("writes black on a light colour and white on a dark one, readable at 4.5:1 or better", () => {
    expect(inkOn("#fde047")).toBe("#000000");
    expect(inkOn("#ffffff")).toBe("#000000");
    expect(inkOn("#0f766e")).toBe("#ffffff");
    expect(inkOn("#000000")).toBe("#ffffff");
    // Every grey and every pure hue: whichever ink is picked reads at 4.5:1 or better.
    const samples = [
      ...Array.from({ length: 256 }, (_, v) => `#${v.toString(16).padStart(2, "0").repeat(3)}`),
      "#ff0000",
      "#00ff00",
      "#0000ff",
      "#ffff00",
      "#00ffff",
      "#ff00ff",
      "#ff6600",
      "#777777",
    ];
    for (const color of samples) expect(contrastRatio(color, inkOn(color)), color).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps a dark brand colour for links on white, and darkens a light one just enough to read", () => {
    expect(brandTextOnWhite("#0f766e")).toBe("#0f766e");
    const yellow = brandTextOnWhite("#fde047");
    expect(contrastRatio(yellow, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    // Still a yellow (red and green well above blue), not black.
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(yellow.slice(i, i + 2), 16)) as [number, number, number];
    expect(r).toBeGreaterThan(b + 40);
    expect(g).toBeGreaterThan(b + 40);
  });
});
