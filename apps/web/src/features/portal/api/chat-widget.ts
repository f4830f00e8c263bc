/**
 * The seam to live chat (another feature, built beside this one): its widget is served at /widget.js once it exists.
 * The portal asks whether it is there and, if so, loads it and opens it as the signed-in customer; this file is all
 * the portal knows of it, so wiring the widget's real API at merge touches nothing else.
 */
interface ChatWidgetApi {
  open?: (options: { orgSlug: string; name: string; email: string | null; token: string }) => void;
}

declare global {
  interface Window {
    CoveChat?: ChatWidgetApi;
  }
}

const WIDGET_PATH = "/widget.js";

/**
 * Whether the server serves the chat widget. Unknown paths get the web app's index.html (a 200 in HTML), so only a
 * JavaScript answer counts.
 */
export async function chatWidgetAvailable(signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch(WIDGET_PATH, { method: "HEAD", signal });
    return res.ok && /javascript/i.test(res.headers.get("content-type") ?? "");
  } catch {
    return false;
  }
}

let loading: Promise<void> | null = null;

function loadWidget(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = WIDGET_PATH;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(new Error("The chat could not be loaded."));
    };
    document.head.append(script);
  });
  return loading;
}

/** Opens the organization's chat as the signed-in customer. */
export async function openChatWidget(options: {
  orgSlug: string;
  name: string;
  email: string | null;
  token: string;
}): Promise<void> {
  await loadWidget();
  if (!window.CoveChat?.open) throw new Error("The chat could not be opened.");
  window.CoveChat.open(options);
}
