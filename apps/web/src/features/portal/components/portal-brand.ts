import type { Branding } from "@cove/contract/portal.ts";
import type { CSSProperties } from "react";

const HEX = /^#[0-9a-f]{6}$/i;
const DEFAULT_ACCENT = "#4f46e5";

/**
 * The organization's accent as CSS variables for the portal's frame (its buttons, tabs and links use them). Only a
 * plain #rrggbb is taken, so a colour can never inject anything into the page's styles.
 */
export function brandStyle(branding: Branding): CSSProperties {
  const accent = HEX.test(branding.color) ? branding.color : DEFAULT_ACCENT;
  return { "--portal-accent": accent } as CSSProperties;
}

/** Buttons in the organization's colour (white text: branding colours are expected dark enough for it). */
export const accentButton =
  "inline-flex items-center justify-center gap-2 rounded-md bg-[var(--portal-accent,#4f46e5)] px-4 h-10 text-sm font-medium text-white shadow-sm hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--portal-accent,#4f46e5)]";
