/**
 * An organization's brand colour as every surface uses it (the portal, the help center, the chat widget, customer
 * emails). Nothing here imports anything: the chat widget bundles this file and must stay small.
 *
 * Only a plain #rrggbb colour is ever put into a style; anything else becomes Cove's default.
 */

/** The brand colour when none is chosen (the app's indigo). */
export const DEFAULT_BRAND_COLOR = "#4f46e5";

const HEX = /^#[0-9a-f]{6}$/i;

export const isHexColor = (value: unknown): value is string => typeof value === "string" && HEX.test(value);

/** The colour if it is a plain #rrggbb (lower-cased), else the default: the one door into a style. */
export function safeBrandColor(value: unknown): string {
  return isHexColor(value) ? value.toLowerCase() : DEFAULT_BRAND_COLOR;
}

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG 2 relative luminance of a #rrggbb colour, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = channels(safeBrandColor(hex)).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour on a background of the brand colour: black or white, whichever contrasts more. One of the two
 * always reaches at least 4.58:1 (so normal text stays readable), which a dark grey instead of black would not.
 */
export function inkOn(background: string): "#000000" | "#ffffff" {
  const color = safeBrandColor(background);
  return contrastRatio(color, "#000000") > contrastRatio(color, "#ffffff") ? "#000000" : "#ffffff";
}

const hex2 = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, "0");

/**
 * The brand colour as text on white (links, a selected tab's label): the colour itself when it reads at 4.5:1 or
 * better, else the same hue darkened just enough. A light brand colour (a yellow) still marks the links.
 */
export function brandTextOnWhite(value: string): string {
  const color = safeBrandColor(value);
  if (contrastRatio(color, "#ffffff") >= 4.5) return color;
  const [r, g, b] = channels(color);
  // Darkening by a factor is monotonic in contrast: the first step that reaches 4.5 is the lightest that does.
  for (let k = 0.95; k > 0; k -= 0.05) {
    const darker = `#${hex2(r * k)}${hex2(g * k)}${hex2(b * k)}`;
    if (contrastRatio(darker, "#ffffff") >= 4.5) return darker;
  }
  return "#000000";
}

/** What a surface needs of the brand colour: the colour, the text on it, and the colour as text on white. */
export interface BrandPalette {
  color: string;
  ink: "#000000" | "#ffffff";
  text: string;
}

export function brandPalette(value: unknown): BrandPalette {
  const color = safeBrandColor(value);
  return { color, ink: inkOn(color), text: brandTextOnWhite(color) };
}
