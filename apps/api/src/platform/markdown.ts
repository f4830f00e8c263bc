import type { markdownRenderer } from "@cove/markdown/render-markdown.ts";

type Render = ReturnType<typeof markdownRenderer>;
let renderer: Promise<Render> | null = null;

/**
 * The renderer the help center uses (packages/markdown: markdown-it, then DOMPurify), on a jsdom window, since
 * DOMPurify needs a DOM to parse what it cleans. jsdom is loaded on the first use (about 0.4 s and 65 MB once per
 * process), so a process that never renders Markdown never pays for it.
 */
async function load(): Promise<Render> {
  const [{ JSDOM }, { markdownRenderer }] = await Promise.all([
    import("jsdom"),
    import("@cove/markdown/render-markdown.ts"),
  ]);
  const { window } = new JSDOM("");
  return markdownRenderer(window, { breaks: true });
}

/** A chat message's Markdown as sanitized HTML, exactly as the staff app and the help center render it. */
export async function chatMarkdownHtml(source: string): Promise<string> {
  renderer ??= load();
  renderer.catch(() => {
    renderer = null;
  });
  return (await renderer)(source);
}
