import { brandPalette } from "@cove/contract/brand-colors.ts";
import type { Branding } from "@cove/contract/portal.ts";
import type { CSSProperties } from "react";
import { buttonClasses } from "../../../components/ui/button.tsx";

/**
 * The organization's colour as CSS variables for the portal's frame: --portal-accent for what is filled with it (the
 * header, buttons, the selected tab's line), --portal-accent-ink for text on it (black or white, whichever reads
 * better: a light brand colour gets black text), --portal-accent-text for the colour as text on white (links, icons),
 * darkened when it is too light to read there. Only a plain #rrggbb is taken, so a colour can never inject anything
 * into the page's styles.
 */
export function brandStyle(branding: Branding): CSSProperties {
  const palette = brandPalette(branding.color);
  return {
    "--portal-accent": palette.color,
    "--portal-accent-ink": palette.ink,
    "--portal-accent-text": palette.text,
  } as CSSProperties;
}

/** Buttons in the organization's colour, their text in the ink that reads on it: the shared button's accent variant. */
export const accentButton = buttonClasses("accent");
