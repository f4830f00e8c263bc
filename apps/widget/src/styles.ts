import { brandPalette } from "@cove/contract/brand-colors.ts";
import { el } from "./dom.ts";

/** The widget's own styles, inside its shadow root: the host page's CSS cannot reach in, and these cannot leak out. */
const CSS = `
:host { all: initial !important; }
* { box-sizing: border-box; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.launcher { position: fixed; right: 20px; bottom: 20px; z-index: 2147483000; width: 56px; height: 56px;
  border-radius: 50%; border: 0; cursor: pointer; background: var(--brand); color: var(--brand-ink);
  box-shadow: 0 6px 20px rgba(15, 23, 42, .25); display: flex; align-items: center; justify-content: center; }
.launcher[hidden] { display: none; }
.launcher svg { width: 26px; height: 26px; }
svg { flex: none; }
.panel { position: fixed; right: 20px; bottom: 88px; z-index: 2147483000; width: 360px; max-width: calc(100vw - 24px);
  height: 520px; max-height: calc(100vh - 110px); background: #fff; color: #0f172a; border-radius: 14px;
  box-shadow: 0 12px 40px rgba(15, 23, 42, .3); display: flex; flex-direction: column; overflow: hidden; font-size: 14px; }
.panel[hidden] { display: none; }
.head { background: var(--brand); color: var(--brand-ink); padding: 12px 14px; display: flex; align-items: center; gap: 8px; }
.head img { height: 28px; max-width: 96px; object-fit: contain; background: #fff; border-radius: 6px; padding: 2px; }
.head h2 { margin: 0; font-size: 15px; font-weight: 600; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.icon { background: transparent; border: 0; color: inherit; cursor: pointer; line-height: 0; padding: 4px; border-radius: 6px; }
.icon svg { width: 20px; height: 20px; }
.icon:focus-visible { outline: 2px solid currentColor; outline-offset: 1px; }
.body { flex: 1; overflow-y: auto; padding: 12px; background: #f8fafc; }
.list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 8px; }
.msg { max-width: 85%; padding: 8px 10px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.4; }
.msg small { display: block; font-size: 11px; opacity: .75; margin-bottom: 2px; }
.visitor { align-self: flex-end; background: var(--brand); color: var(--brand-ink); border-bottom-right-radius: 4px; }
.agent { align-self: flex-start; background: #fff; border: 1px solid #e2e8f0; border-bottom-left-radius: 4px; }
.ai { align-self: flex-start; background: #f5f3ff; border: 1px solid #ddd6fe; border-bottom-left-radius: 4px; }
.system { align-self: center; background: #e2e8f0; color: #334155; font-size: 12px; border-radius: 999px; text-align: center; }
.sources { margin: 6px 0 0; padding: 6px 0 0; border-top: 1px solid #ddd6fe; list-style: none; font-size: 12px; }
.sources a { color: #6d28d9; }
.file { display: block; max-width: 100%; border: 0; padding: 0; background: none; color: inherit; text-decoration: underline; cursor: pointer; font: inherit; text-align: left; }
.file img { display: block; max-width: 200px; max-height: 160px; border-radius: 8px; }
.attach { cursor: pointer; display: flex; align-items: center; padding: 0 6px; color: #64748b; }
.attach svg { width: 20px; height: 20px; }
.attach input { display: none; }
.thinking { align-self: flex-start; color: #64748b; font-style: italic; }
.foot { border-top: 1px solid #e2e8f0; padding: 10px; display: flex; gap: 8px; background: #fff; }
.foot[hidden], .prechat[hidden], .ended[hidden], .error[hidden] { display: none; }
input { flex: 1; min-width: 0; height: 38px; border: 1px solid #cbd5e1; border-radius: 8px; padding: 0 10px; font-size: 14px; color: #0f172a; background: #fff; }
input:focus { outline: 2px solid var(--brand-text); outline-offset: -1px; }
.btn { height: 38px; border: 0; border-radius: 8px; padding: 0 14px; background: var(--brand); color: var(--brand-ink); font-weight: 600; cursor: pointer; font-size: 14px; }
.btn:disabled { opacity: .6; cursor: default; }
.prechat { padding: 16px; display: flex; flex-direction: column; gap: 10px; }
.prechat p { margin: 0; color: #334155; }
.prechat label { display: flex; flex-direction: column; gap: 4px; font-size: 13px; color: #334155; }
.ended { padding: 10px; text-align: center; color: #475569; border-top: 1px solid #e2e8f0; }
.ended p { margin: 0 0 8px; }
.rate { display: flex; gap: 8px; justify-content: center; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
.rate p { margin: 0; width: 100%; }
.rate[hidden], .thanks[hidden] { display: none; }
.ghost { background: #fff; color: #0f172a; border: 1px solid #cbd5e1; }
.error { color: #b91c1c; font-size: 12px; padding: 0 12px 8px; }
.typing { color: #64748b; font-size: 12px; font-style: italic; padding: 4px 12px; }
.typing[hidden] { display: none; }
.rich { white-space: normal; }
.rich > :first-child { margin-top: 0; } .rich > :last-child { margin-bottom: 0; }
.rich p, .rich ul, .rich ol, .rich table, .rich pre, .rich blockquote { margin: 6px 0; }
.rich ul, .rich ol { padding-left: 20px; }
.rich h1, .rich h2, .rich h3, .rich h4 { font-size: 14px; margin: 6px 0; }
.rich a { color: #6d28d9; }
.rich img { max-width: 100%; }
.rich pre { overflow-x: auto; white-space: pre; }
.rich table { border-collapse: collapse; display: block; max-width: 100%; overflow-x: auto; font-size: 12px; }
.rich th, .rich td { border-bottom: 1px solid #ddd6fe; padding: 3px 6px; text-align: left; }
.helpful { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin-top: 6px; font-size: 12px; color: #475569; white-space: normal; }
.thumb { border: 1px solid #cbd5e1; background: #fff; color: #0f172a; border-radius: 6px; padding: 2px 8px; cursor: pointer; font-size: 12px; display: inline-flex; align-items: center; gap: 4px; }
.thumb svg { width: 14px; height: 14px; }
.thumb[aria-pressed="true"] { background: #ede9fe; border-color: #7c3aed; color: #4c1d95; }
.thumb:focus-visible { outline: 2px solid var(--brand-text); outline-offset: 1px; }
`;

/**
 * Styles go in through a constructed stylesheet and CSSOM properties, never a style attribute or an inline <style>,
 * so a host page's strict style-src does not block them.
 */
export function adoptStyles(shadow: ShadowRoot): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    shadow.adoptedStyleSheets = [sheet];
  } catch {
    // Browsers without constructed stylesheets: an inline sheet (a host page's strict style-src may refuse it).
    shadow.append(el("style", undefined, CSS));
  }
}

/**
 * The brand colour, black or white for text on it (whichever reads better), and the colour as a line on white (focus
 * rings), darkened when too light to see there. Only a plain #rrggbb gets in.
 */
export function setColor(host: HTMLElement | null, color: string | undefined): void {
  const palette = brandPalette(color);
  host?.style.setProperty("--brand", palette.color);
  host?.style.setProperty("--brand-ink", palette.ink);
  host?.style.setProperty("--brand-text", palette.text);
}

/** Icons, drawn with lines in the text's colour: the same on every system, emoji font or not. */
const ICONS = {
  chat: "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z",
  close: "M6 6l12 12M18 6 6 18",
  attach: "M16 7v9a4 4 0 0 1-8 0V6a2.5 2.5 0 0 1 5 0v9a1 1 0 0 1-2 0V8",
  thumb: "M7 10v11H3V10h4zM7 10l4-7a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2.3l-1.4 7a2 2 0 0 1-2 1.7H7",
} as const;

/** An SVG icon built element by element (no markup string: a host's Trusted Types policy has nothing to refuse). */
export function icon(name: keyof typeof ICONS, flip = false): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  // Thumbs down is thumbs up turned over.
  if (flip) path.setAttribute("transform", "rotate(180 12 12)");
  svg.append(path);
  return svg;
}
