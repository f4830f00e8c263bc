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
 * It imports only the brand colour rules (no dependencies): it must stay small (budget 25 KB gzip). The parts:
 * types.ts (what the API answers), transport.ts (the API and the live socket), styles.ts (CSS and icons), answer.ts
 * (an answer built from nodes), dom.ts; this file draws the launcher and the panel and runs the chat.
 */

import { isHexColor } from "@cove/contract/brand-colors.ts";
import { rich, sourceLink } from "./answer.ts";
import { el, field } from "./dom.ts";
import { adoptStyles, icon, setColor } from "./styles.ts";
import { ChatApi, ChatFollow, HttpError } from "./transport.ts";
import type { Conversation, Feedback, Look, Message, OpenOptions, Rating, Session, Stored } from "./types.ts";

const MESSAGE_MAX = 2000;
/** How long the launcher waits for the organization's colour before it shows in the default one. */
const LOOK_WAIT_MS = 4000;

const script = document.currentScript instanceof HTMLScriptElement ? document.currentScript : null;
const base = script?.src ? new URL(script.src).origin : location.origin;
const chat = new ChatApi(base, script?.dataset.org ?? "");
const live = new ChatFollow(base, { changed: () => void refresh(), typing: (names) => showTyping(names) });
let portalToken: string | null = null;
let prefill: { name: string; email: string } = { name: "", email: "" };

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
let thinking: HTMLElement | null = null;

let look: Look | null = null;

/**
 * The organization's name, colour and logo: asked once, when the launcher is first drawn (a small answer the browser
 * keeps for five minutes, so a visitor going from page to page asks again only then). Until it answers, a launcher
 * without data-color stays hidden rather than flash in another colour; if it cannot be had, the default colour shows.
 */
function loadLook(launcher: HTMLButtonElement): void {
  // Called once, from mount().
  void chat
    .call<Look>("/chat/widget")
    .then((answer) => {
      look = answer;
      setColor(host, answer.brand_color);
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
  setColor(host, given);
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
    if (input.value.trim()) live.typing();
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
    const answer = await chat.call<{ session: Session }>(`/chat/sessions/${stored.sessionId}/rating`, {
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
    const answer = await chat.call<{ message: Message }>(`/chat/sessions/${stored.sessionId}/messages/${id}/feedback`, {
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
  item.append(
    m.attachment ? fileView(m.attachment) : nodes?.length ? rich(nodes, base) : document.createTextNode(m.message),
  );
  const links = m.sources.map((s) => sourceLink(s, base)).filter((l): l is HTMLLIElement => l !== null);
  if (links.length > 0) {
    const sources = el("ul", "sources");
    sources.append(...links);
    item.append(sources);
  }
  if (m.sender_type === "ai" && m.feedback !== undefined) item.append(helpfulRow(m));
  ui.list.insertBefore(item, thinking);
  ui.body.scrollTop = ui.body.scrollHeight;
}

/** A chat file: a picture for a safe image, else a download. */
function fileFor(id: string): Promise<Blob> {
  return stored ? chat.fileBlob(stored, id) : Promise.reject(new Error("no chat"));
}

function fileView(f: NonNullable<Message["attachment"]>): HTMLElement {
  const button = el("button", "file", f.filename);
  button.type = "button";
  if (/^image\/(png|jpeg|gif|webp)$/.test(f.content_type)) {
    void fileFor(f.id).then(
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
    void fileFor(f.id).then(
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
    const answer = await chat.call<{ message: Message }>(
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

function forget(): void {
  stored = null;
  chat.writeStored(null);
  live.stop();
}

async function refresh(): Promise<void> {
  if (!stored) return;
  try {
    const c = await chat.call<Conversation>(`/chat/sessions/${stored.sessionId}`, { token: stored.token });
    for (const m of c.messages) addMessage(m);
    showConversation(c.session);
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 404)) {
      forget();
      showPrechat();
    }
  }
}

async function startChat(name: string, email: string, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  showError(null);
  try {
    const body: { name?: string; email?: string } = {};
    if (name) body.name = name;
    if (email) body.email = email;
    const answer = await chat.call<Conversation & { token: string }>("/chat/sessions", {
      method: "POST",
      body,
      token: portalToken,
    });
    stored = { token: answer.token, sessionId: answer.session.id };
    chat.writeStored(stored);
    for (const m of answer.messages) addMessage(m);
    showConversation(answer.session);
    ui?.input.focus();
    live.start(stored);
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
    const answer = await chat.call<{ messages: Message[] }>(`/chat/sessions/${stored.sessionId}/messages`, {
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
  if (options.orgSlug) chat.slug = options.orgSlug;
  if (options.token) portalToken = options.token;
  prefill = { name: options.name ?? prefill.name, email: options.email ?? prefill.email };
  if (!chat.slug) return;
  mount();
  if (!root) return;
  ui ??= buildUi(root);
  ui.panel.hidden = false;
  if (opened) return;
  opened = true;
  showLook();
  stored = chat.readStored();
  if (stored) {
    void refresh();
    live.start(stored);
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
if (chat.slug) {
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);
}
