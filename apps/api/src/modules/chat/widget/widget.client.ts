/**
 * Cove's chat widget: one script tag on any website (docs/decisions/2026-11-25-live-chat.md).
 *
 *   <script src="https://cove.example/widget.js" data-org="acme" data-color="#4f46e5" async></script>
 *
 * It draws a launcher inside a shadow root (the host page's CSS cannot reach in, and ours cannot leak out), in the
 * organization's brand colour: one small cached call (/chat/widget: name, colour, logo) tells it, and nothing else is
 * loaded until the visitor opens it. data-color, when the tag has it, paints the launcher at once, before that answer.
 * The shadow host hangs from <html>, not <body>: a theme that transforms <body> would make the launcher fixed to the
 * body instead of the window. Styles go in through a constructed stylesheet and CSSOM properties, never a style
 * attribute or an inline <style>, so a host page's strict style-src does not block them. No HTML string is ever
 * parsed: text is set as text nodes, an assistant's answer is built element by element from the nodes the server
 * made of its sanitized Markdown (through an allow-list of our own as well), and icons are SVG built the same way, so
 * a host page that requires Trusted Types has nothing to refuse, and no icon depends on an emoji font. The visitor's
 * token is kept in localStorage, so the conversation survives reloads and restarts.
 * It imports only the brand colour rules (no dependencies): it must stay small (budget 25 KB gzip).
 */

import { brandPalette, isHexColor } from "@cove/contract/brand-colors.ts";

/** One node of an answer, in document order, under the node at `parent` (-1: the answer): answerNodeSchema. */
interface AnswerNode {
  parent: number;
  tag: string;
  text?: string;
  href?: string;
  src?: string;
  alt?: string;
  title?: string;
  start?: number;
}
interface Source {
  id: string;
  title: string;
  url: string;
}
interface Message {
  id: string;
  sender_type: "visitor" | "agent" | "ai" | "system";
  sender_name: string | null;
  message: string;
  sources: Source[];
  /** A file sent as the message. */
  attachment?: { id: string; filename: string; content_type: string };
  /** An assistant's answer: its Markdown rendered and sanitized by the server, as nodes to build. */
  nodes?: AnswerNode[];
  /** An answer the visitor may rate: their thumbs, null until they say; absent on other messages. */
  feedback?: Feedback | null;
}
type Feedback = "up" | "down";
type Rating = "good" | "bad";
interface Session {
  id: string;
  status: "active" | "closed" | "transferred";
  rating: Rating | null;
}
interface Conversation {
  session: Session;
  messages: Message[];
}
interface Stored {
  token: string;
  sessionId: string;
}
export interface OpenOptions {
  orgSlug?: string;
  name?: string;
  email?: string | null;
  /** A customer's portal token: the chat is then theirs, with no pre-chat form. */
  token?: string;
}

interface Look {
  name: string;
  brand_color: string;
  logo_url: string | null;
}

const MESSAGE_MAX = 2000;
/** How long the launcher waits for the organization's colour before it shows in the default one. */
const LOOK_WAIT_MS = 4000;

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

const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const base = script?.src ? new URL(script.src).origin : location.origin;
let slug = script?.dataset.org ?? "";
let portalToken: string | null = null;
let prefill: { name: string; email: string } = { name: "", email: "" };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Storage may be blocked (private modes, third-party contexts): the chat then lasts as long as the page.
const storeKey = () => `cove.chat.${slug}`;
function readStored(): Stored | null {
  try {
    const raw = localStorage.getItem(storeKey());
    const value = raw ? (JSON.parse(raw) as Partial<Stored>) : null;
    return value?.token && value.sessionId ? { token: value.token, sessionId: value.sessionId } : null;
  } catch {
    return null;
  }
}
function writeStored(value: Stored | null): void {
  try {
    if (value) localStorage.setItem(storeKey(), JSON.stringify(value));
    else localStorage.removeItem(storeKey());
  } catch {
    // Not kept: see above.
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; token?: string | null; file?: File } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = "application/json";
  if (init.file) headers["content-type"] = "application/octet-stream";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(`${base}/api/public/${encodeURIComponent(slug)}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.file ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const data = (await res.json().catch(() => null)) as { error?: string } | null;
  if (!res.ok) throw new HttpError(res.status, data?.error ?? "Something went wrong. Please try again.");
  return data as T;
}

/** The widget's elements, built on the first open. */
interface Ui {
  panel: HTMLElement;
  title: HTMLElement;
  /** The organization's logo beside its name, once the look has one. */
  logo: HTMLImageElement | null;
  body: HTMLElement;
  list: HTMLUListElement;
  prechat: HTMLFormElement;
  foot: HTMLFormElement;
  input: HTMLInputElement;
  send: HTMLButtonElement;
  ended: HTMLElement;
  /** "How did we do?" with Good and Bad, once the chat has ended; then the thanks. */
  rate: HTMLElement;
  thanks: HTMLElement;
  error: HTMLElement;
  typing: HTMLElement;
}

let host: HTMLElement | null = null;
let root: ShadowRoot | null = null;
let ui: Ui | null = null;
let stored: Stored | null = null;
const shown = new Set<string>();
/** The "Was this helpful?" row of each answer shown, to show a rating given meanwhile (another tab). */
const ratings = new Map<string, HTMLElement>();
let socket: WebSocket | null = null;
let retryMs = 1000;
let thinking: HTMLElement | null = null;

/**
 * The brand colour, black or white for text on it (whichever reads better), and the colour as a line on white (focus
 * rings), darkened when too light to see there. Only a plain #rrggbb gets in.
 */
function setColor(color: string | undefined): void {
  const palette = brandPalette(color);
  host?.style.setProperty("--brand", palette.color);
  host?.style.setProperty("--brand-ink", palette.ink);
  host?.style.setProperty("--brand-text", palette.text);
}

function adoptStyles(shadow: ShadowRoot): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    shadow.adoptedStyleSheets = [sheet];
  } catch {
    // Browsers without constructed stylesheets: an inline sheet (a host page's strict style-src may refuse it).
    shadow.append(el("style", undefined, CSS));
  }
}

/** Icons, drawn with lines in the text's colour: the same on every system, emoji font or not. */
const ICONS = {
  chat: "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z",
  close: "M6 6l12 12M18 6 6 18",
  attach: "M16 7v9a4 4 0 0 1-8 0V6a2.5 2.5 0 0 1 5 0v9a1 1 0 0 1-2 0V8",
  thumb: "M7 10v11H3V10h4zM7 10l4-7a2 2 0 0 1 3 2l-1 5h6a2 2 0 0 1 2 2.3l-1.4 7a2 2 0 0 1-2 1.7H7",
} as const;

function icon(name: keyof typeof ICONS, flip = false): SVGSVGElement {
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

let look: Look | null = null;

/**
 * The organization's name, colour and logo: asked once, when the launcher is first drawn (a small answer the browser
 * keeps for five minutes, so a visitor going from page to page asks again only then). Until it answers, a launcher
 * without data-color stays hidden rather than flash in another colour; if it cannot be had, the default colour shows.
 */
function loadLook(launcher: HTMLButtonElement): void {
  // Called once, from mount().
  void api<Look>("/chat/widget")
    .then((answer) => {
      look = answer;
      setColor(answer.brand_color);
      showLook();
    })
    .catch(() => {
      // The default look (or data-color) stays.
    })
    .finally(() => {
      launcher.hidden = false;
    });
  // A slow answer does not keep the launcher away: it shows in the default colour and takes the brand's on arrival.
  setTimeout(() => {
    launcher.hidden = false;
  }, LOOK_WAIT_MS);
}

/** The organization's name and logo at the top of the panel, once both are known. */
function showLook(): void {
  if (!ui || !look) return;
  ui.title.textContent = look.name;
  const logo = look.logo_url ? new URL(look.logo_url, base) : null;
  // Only Cove's own logo address: whatever the answer said, nothing else is loaded.
  if (!logo || logo.origin !== base || ui.logo) return;
  const img = el("img");
  img.alt = "";
  img.src = logo.href;
  // A host page whose policy refuses Cove's images shows the name alone.
  img.addEventListener("error", () => img.remove());
  ui.logo = img;
  ui.title.before(img);
}

function mount(): void {
  if (host) return;
  host = el("div");
  host.id = "cove-chat-widget";
  root = host.attachShadow({ mode: "open" });
  adoptStyles(root);
  const given = script?.dataset.color;
  setColor(given);
  const launcher = el("button", "launcher");
  launcher.type = "button";
  launcher.setAttribute("aria-label", "Open chat");
  launcher.append(icon("chat"));
  launcher.addEventListener("click", () => (ui && !ui.panel.hidden ? hide() : open()));
  launcher.hidden = !isHexColor(given);
  root.append(launcher);
  // Beside <body>, not in it: a transform (or filter) on <body> would otherwise carry the fixed launcher with it.
  document.documentElement.append(host);
  loadLook(launcher);
}

function field(label: string, input: HTMLInputElement): HTMLLabelElement {
  const wrap = el("label", undefined, label);
  wrap.append(input);
  return wrap;
}

function buildUi(shadow: ShadowRoot): Ui {
  const panel = el("section", "panel");
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", "Chat");
  const head = el("div", "head");
  const title = el("h2", undefined, "Chat with us");
  const close = el("button", "icon");
  close.append(icon("close"));
  close.type = "button";
  close.setAttribute("aria-label", "Close chat");
  close.addEventListener("click", hide);
  head.append(title, close);

  const body = el("div", "body");
  const list = el("ul", "list");
  list.setAttribute("aria-live", "polite");
  body.append(list);

  const prechat = el("form", "prechat");
  const name = el("input");
  name.name = "name";
  name.maxLength = 120;
  name.autocomplete = "name";
  const email = el("input");
  email.name = "email";
  email.type = "email";
  email.maxLength = 254;
  email.autocomplete = "email";
  const start = el("button", "btn", "Start chat");
  start.type = "submit";
  prechat.append(el("p", undefined, "Tell us who you are (optional) and we'll get you an answer."));
  prechat.append(field("Name", name), field("Email", email), start);
  prechat.addEventListener("submit", (e) => {
    e.preventDefault();
    void startChat(name.value.trim(), email.value.trim(), start);
  });

  const foot = el("form", "foot");
  const input = el("input");
  input.placeholder = "Type a message…";
  input.maxLength = MESSAGE_MAX;
  input.setAttribute("aria-label", "Message");
  input.addEventListener("input", () => {
    if (input.value.trim()) announceTyping();
  });
  const send = el("button", "btn", "Send");
  send.type = "submit";
  // A file goes as a message of its own, as soon as it is chosen.
  const attach = el("label", "attach");
  attach.append(icon("attach"));
  attach.title = "Attach a file";
  const picker = el("input");
  picker.type = "file";
  picker.setAttribute("aria-label", "Attach a file");
  picker.addEventListener("change", () => {
    for (const file of picker.files ?? []) void sendFile(file);
    picker.value = "";
  });
  attach.append(picker);
  foot.append(attach, input, send);
  foot.addEventListener("submit", (e) => {
    e.preventDefault();
    void sendMessage();
  });

  const ended = el("div", "ended");
  const again = el("button", "btn", "Start a new chat");
  again.type = "button";
  again.addEventListener("click", () => {
    forget();
    showPrechat();
  });
  const rate = el("div", "rate");
  rate.append(el("p", undefined, "How did we do?"));
  for (const [rating, label] of [
    ["good", "Good"],
    ["bad", "Bad"],
  ] as const) {
    const button = el("button", "btn ghost", label);
    button.type = "button";
    button.addEventListener("click", () => void rateChat(rating, rate));
    rate.append(button);
  }
  const thanks = el("p", "thanks", "Thanks for your feedback.");
  ended.append(el("p", undefined, "This chat has ended."), rate, thanks, again);
  const error = el("div", "error");
  error.setAttribute("role", "alert");
  const typing = el("div", "typing");
  typing.hidden = true;

  panel.append(head, body, prechat, typing, error, foot, ended);
  shadow.append(panel);
  name.value = prefill.name;
  email.value = prefill.email;
  return { panel, title, logo: null, body, list, prechat, foot, input, send, ended, rate, thanks, error, typing };
}

function showError(text: string | null): void {
  if (!ui) return;
  ui.error.textContent = text ?? "";
  ui.error.hidden = !text;
}

function showPrechat(): void {
  if (!ui) return;
  ui.list.replaceChildren();
  shown.clear();
  ratings.clear();
  ui.prechat.hidden = false;
  ui.foot.hidden = true;
  ui.ended.hidden = true;
}

function showConversation(session: Session): void {
  if (!ui) return;
  ui.prechat.hidden = true;
  const active = session.status === "active";
  ui.foot.hidden = !active;
  ui.ended.hidden = active;
  ui.rate.hidden = active || session.rating !== null;
  ui.thanks.hidden = session.rating === null;
}

async function rateChat(rating: Rating, group: HTMLElement): Promise<void> {
  if (!stored) return;
  for (const b of group.querySelectorAll("button")) b.disabled = true;
  showError(null);
  try {
    const answer = await api<{ session: Session }>(`/chat/sessions/${stored.sessionId}/rating`, {
      method: "PUT",
      body: { rating },
      token: stored.token,
    });
    showConversation(answer.session);
  } catch (error) {
    showError(error instanceof Error ? error.message : "Your answer could not be sent. Please try again.");
  } finally {
    for (const b of group.querySelectorAll("button")) b.disabled = false;
  }
}

function sourceLink(s: Source): HTMLLIElement | null {
  const url = new URL(s.url, base);
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const item = el("li");
  const link = el("a", undefined, s.title);
  link.href = url.href;
  link.target = "_blank";
  link.rel = "noopener noreferrer";
  item.append(link);
  return item;
}

/** An address of an answer's link or picture, against Cove's origin (not the host page's); null unless web or mail. */
function safeUrl(value: string): string | null {
  try {
    const url = new URL(value, base);
    return /^(https?|mailto|tel):$/.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const RICH_TAGS = /^(p|br|hr|h[1-6]|strong|em|s|code|pre|blockquote|ul|ol|li|a|img|table|thead|tbody|tr|th|td)$/;

/**
 * An answer, built from the nodes the server made of its sanitized HTML (createElement and text nodes only: nothing is
 * parsed here), through our own allow-list again: the elements Markdown makes, with their text, web addresses and
 * nothing else. A node of any other kind is left out.
 */
function rich(nodes: AnswerNode[]): HTMLElement {
  const box = el("div", "rich");
  const made: Node[] = [];
  for (const node of nodes) {
    // Only an element built earlier can hold a node; anything else goes to the answer itself.
    const at = node.parent >= 0 ? made[node.parent] : undefined;
    const parent = at instanceof Element ? at : box;
    let built: Node;
    if (node.tag === "#text") built = document.createTextNode(node.text ?? "");
    else if (RICH_TAGS.test(node.tag)) {
      const element = document.createElement(node.tag);
      const href = node.href ? safeUrl(node.href) : null;
      const src = node.src ? safeUrl(node.src) : null;
      if (href) element.setAttribute("href", href);
      if (src) element.setAttribute("src", src);
      if (node.alt) element.setAttribute("alt", node.alt);
      if (node.title) element.setAttribute("title", node.title);
      if (typeof node.start === "number") element.setAttribute("start", String(node.start));
      if (element instanceof HTMLAnchorElement) {
        element.target = "_blank";
        element.rel = "noopener noreferrer nofollow";
      }
      built = element;
    } else built = document.createTextNode("");
    made.push(built);
    parent.appendChild(built);
  }
  return box;
}

function showFeedback(row: HTMLElement, feedback: Feedback | null): void {
  for (const button of row.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.value === feedback));
  }
  const status = row.querySelector("[role=status]");
  if (status) status.textContent = feedback ? "Thanks for your feedback." : "";
}

/**
 * "Was this helpful?" under an answer: one rating per answer, which a later click replaces (as on /ai-test). A thumbs
 * down puts the question on the team's list of questions the assistant could not answer.
 */
function helpfulRow(m: Message): HTMLElement {
  const row = el("div", "helpful");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", "Was this helpful?");
  row.append(el("span", undefined, "Was this helpful?"));
  for (const [value, label] of [
    ["up", "Yes"],
    ["down", "No"],
  ] as const) {
    const button = el("button", "thumb");
    button.type = "button";
    button.value = value;
    button.append(icon("thumb", value === "down"), label);
    button.addEventListener("click", () => void rateAnswer(m.id, value, row));
    row.append(button);
  }
  const status = el("span");
  status.setAttribute("role", "status");
  row.append(status);
  showFeedback(row, m.feedback ?? null);
  ratings.set(m.id, row);
  return row;
}

async function rateAnswer(id: string, feedback: Feedback, row: HTMLElement): Promise<void> {
  if (!stored) return;
  const buttons = row.querySelectorAll("button");
  for (const b of buttons) b.disabled = true;
  showError(null);
  try {
    const answer = await api<{ message: Message }>(`/chat/sessions/${stored.sessionId}/messages/${id}/feedback`, {
      method: "PUT",
      body: { helpful: feedback === "up" },
      token: stored.token,
    });
    showFeedback(row, answer.message.feedback ?? null);
  } catch (error) {
    showError(error instanceof Error ? error.message : "Your feedback could not be sent. Please try again.");
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

function addMessage(m: Message): void {
  if (!ui) return;
  if (shown.has(m.id)) {
    const row = ratings.get(m.id);
    if (row && m.feedback !== undefined) showFeedback(row, m.feedback);
    return;
  }
  shown.add(m.id);
  const item = el("li", `msg ${m.sender_type}`);
  if (m.sender_type === "ai") item.append(el("small", undefined, "Assistant"));
  if (m.sender_type === "agent") item.append(el("small", undefined, m.sender_name ?? "Support"));
  // Only the assistant's answers are Markdown; what people write is shown as they typed it.
  const nodes = m.sender_type === "ai" ? m.nodes : undefined;
  item.append(m.attachment ? fileView(m.attachment) : nodes?.length ? rich(nodes) : document.createTextNode(m.message));
  const links = m.sources.map(sourceLink).filter((l): l is HTMLLIElement => l !== null);
  if (links.length > 0) {
    const sources = el("ul", "sources");
    sources.append(...links);
    item.append(sources);
  }
  if (m.sender_type === "ai" && m.feedback !== undefined) item.append(helpfulRow(m));
  ui.list.insertBefore(item, thinking);
  ui.body.scrollTop = ui.body.scrollHeight;
}

/** A chat file, fetched with the visitor's token: a picture for a safe image, else a download. */
async function fileBlob(id: string): Promise<Blob> {
  if (!stored) throw new Error("no chat");
  const res = await fetch(
    `${base}/api/public/${encodeURIComponent(slug)}/chat/sessions/${stored.sessionId}/files/${id}`,
    { headers: { authorization: `Bearer ${stored.token}` } },
  );
  if (!res.ok) throw new Error("The file could not be opened.");
  return res.blob();
}

function fileView(f: NonNullable<Message["attachment"]>): HTMLElement {
  const button = el("button", "file", f.filename);
  button.type = "button";
  if (/^image\/(png|jpeg|gif|webp)$/.test(f.content_type)) {
    void fileBlob(f.id).then(
      (blob) => {
        const img = el("img");
        img.alt = f.filename;
        img.src = URL.createObjectURL(blob);
        button.replaceChildren(img);
      },
      () => {},
    );
  }
  button.addEventListener("click", () => {
    void fileBlob(f.id).then(
      (blob) => {
        const a = el("a");
        a.href = URL.createObjectURL(blob);
        a.download = f.filename;
        a.click();
      },
      (e: Error) => showError(e.message),
    );
  });
  return button;
}

async function sendFile(file: File): Promise<void> {
  if (!stored) return;
  showError(null);
  try {
    const answer = await api<{ message: Message }>(
      `/chat/sessions/${stored.sessionId}/files?filename=${encodeURIComponent(file.name)}`,
      { method: "POST", token: stored.token, file },
    );
    addMessage(answer.message);
  } catch (error) {
    showError(`${file.name}: ${error instanceof Error ? error.message : "it could not be sent."}`);
  }
}

function setThinking(on: boolean): void {
  if (!ui) return;
  if (on && !thinking) {
    thinking = el("li", "msg thinking", "…");
    ui.list.append(thinking);
  } else if (!on && thinking) {
    thinking.remove();
    thinking = null;
  }
}

/** Who of the team is typing, under the conversation. */
function showTyping(names: string[]): void {
  if (!ui) return;
  ui.typing.textContent = names.length > 0 ? `${names.join(", ")} ${names.length === 1 ? "is" : "are"} typing…` : "";
  ui.typing.hidden = names.length === 0;
}

let typedAt = 0;
/** Tells the team the visitor is typing, at most every two seconds. */
function announceTyping(): void {
  const now = Date.now();
  if (!stored || socket?.readyState !== WebSocket.OPEN || now - typedAt < 2_000) return;
  typedAt = now;
  socket.send(JSON.stringify({ type: "typing", topic: `chat_session:${stored.sessionId}` }));
}

function forget(): void {
  stored = null;
  writeStored(null);
  socket?.close();
  socket = null;
}

async function refresh(): Promise<void> {
  if (!stored) return;
  try {
    const c = await api<Conversation>(`/chat/sessions/${stored.sessionId}`, { token: stored.token });
    for (const m of c.messages) addMessage(m);
    showConversation(c.session);
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 404)) {
      forget();
      showPrechat();
    }
  }
}

function follow(): void {
  if (!stored || socket) return;
  const current = stored;
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/realtime`);
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "auth", token: current.token }));
  ws.onmessage = (e) => {
    const frame = JSON.parse(String(e.data)) as { type: string };
    if (frame.type === "ready") {
      retryMs = 1000;
      ws.send(JSON.stringify({ type: "subscribe", topic: `chat_session:${current.sessionId}` }));
      void refresh();
    } else if (frame.type === "event") {
      void refresh();
    } else if (frame.type === "presence") {
      const viewers = (frame as { viewers?: { name: string; typing: boolean }[] }).viewers ?? [];
      showTyping(viewers.filter((v) => v.typing).map((v) => v.name || "Support"));
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    // Back again after a growing, jittered wait; what was missed meanwhile is fetched on "ready".
    setTimeout(follow, retryMs + Math.random() * 500);
    retryMs = Math.min(retryMs * 2, 30_000);
  };
}

async function startChat(name: string, email: string, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  showError(null);
  try {
    const body: { name?: string; email?: string } = {};
    if (name) body.name = name;
    if (email) body.email = email;
    const answer = await api<Conversation & { token: string }>("/chat/sessions", {
      method: "POST",
      body,
      token: portalToken,
    });
    stored = { token: answer.token, sessionId: answer.session.id };
    writeStored(stored);
    for (const m of answer.messages) addMessage(m);
    showConversation(answer.session);
    ui?.input.focus();
    follow();
  } catch (error) {
    showError(error instanceof Error ? error.message : "The chat could not be started.");
  } finally {
    button.disabled = false;
  }
}

async function sendMessage(): Promise<void> {
  if (!ui || !stored) return;
  const text = ui.input.value.trim();
  if (!text) return;
  ui.send.disabled = true;
  showError(null);
  setThinking(true);
  try {
    const answer = await api<{ messages: Message[] }>(`/chat/sessions/${stored.sessionId}/messages`, {
      method: "POST",
      body: { message: text },
      token: stored.token,
    });
    ui.input.value = "";
    setThinking(false);
    for (const m of answer.messages) addMessage(m);
  } catch (error) {
    setThinking(false);
    showError(error instanceof Error ? error.message : "Your message could not be sent. Please try again.");
    if (error instanceof HttpError && error.status === 409) void refresh();
  } finally {
    ui.send.disabled = false;
  }
}

let opened = false;

function open(options: OpenOptions = {}): void {
  if (options.orgSlug) slug = options.orgSlug;
  if (options.token) portalToken = options.token;
  prefill = { name: options.name ?? prefill.name, email: options.email ?? prefill.email };
  if (!slug) return;
  mount();
  if (!root) return;
  ui ??= buildUi(root);
  ui.panel.hidden = false;
  if (opened) return;
  opened = true;
  showLook();
  stored = readStored();
  if (stored) {
    void refresh();
    follow();
  } else showPrechat();
}

function hide(): void {
  if (ui) ui.panel.hidden = true;
}

declare global {
  interface Window {
    CoveChat?: { open: (options?: OpenOptions) => void };
  }
}

window.CoveChat = { open };
// A tag with data-org shows its launcher at once; the portal, which loads the script itself, opens it when asked.
if (slug) {
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
}
