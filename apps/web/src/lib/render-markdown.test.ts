import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderChatMarkdown, renderMarkdown } from "./render-markdown.ts";

const payloadFile = path.resolve(import.meta.dirname, "../../../../test-data/xss-payloads/xss-payload-list.txt");
const payloads = readFileSync(payloadFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");

const MARKDOWN_TAGS = new Set(
  "p br hr h1 h2 h3 h4 h5 h6 strong em s code pre blockquote ul ol li a img table thead tbody tr th td".split(" "),
);
/** What the browser would go to: an address is safe when it resolves to a web, mail or phone address, or an image. */
function safeAddress(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value, "https://help.example/articles/");
  } catch {
    return true; // The browser cannot follow it either.
  }
  if (["https:", "http:", "mailto:", "tel:"].includes(url.protocol)) return true;
  return url.protocol === "data:" && /^data:image\/(gif|png|jpeg|webp)[;,]/i.test(url.href);
}

/** What would make rendered HTML dangerous, or null when there is nothing. */
function danger(html: string): string | null {
  const box = document.createElement("template");
  box.innerHTML = html;
  for (const el of box.content.querySelectorAll("*")) {
    const tag = el.tagName.toLowerCase();
    if (!MARKDOWN_TAGS.has(tag)) return `element <${tag}>`;
    for (const attr of el.attributes) {
      if (attr.name.startsWith("on")) return `handler ${attr.name} on <${tag}>`;
      if (!["href", "src", "title", "alt", "start", "target", "rel"].includes(attr.name))
        return `attribute ${attr.name} on <${tag}>`;
      if ((attr.name === "href" || attr.name === "src") && !safeAddress(attr.value))
        return `address ${attr.value} on <${tag}>`;
    }
  }
  return null;
}

describe("renderMarkdown", () => {
  it("renders the Markdown an article is written in", () => {
    const html = renderMarkdown(
      "## Start a return\n\n1. Open **Orders**\n2. Choose *Return*\n\n[Help](https://example.com/help) `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |",
    );
    expect(html).toContain("<h2>Start a return</h2>");
    expect(html).toContain("<ol>");
    expect(html).toContain("<strong>Orders</strong>");
    expect(html).toContain("<em>Return</em>");
    expect(html).toContain('<a href="https://example.com/help" target="_blank" rel="noopener noreferrer nofollow">');
    expect(html).toContain("<code>code</code>");
    expect(html).toContain("<td>2</td>");
  });

  it("keeps a chat answer's line breaks, with the same elements and the same sanitizing", () => {
    const source =
      "Prices:\nWhat each option costs:\n1. Standard\n\n<script>alert(1)</script> [x](javascript:alert(1))";
    expect(renderMarkdown(source)).toContain("<p>Prices:\nWhat each option costs:</p>");
    const html = renderChatMarkdown(source);
    expect(html).toContain("<p>Prices:<br>\nWhat each option costs:</p>");
    expect(html).toContain("<ol>\n<li>Standard</li>\n</ol>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1))");
    expect(danger(html)).toBeNull();
  });

  it("shows raw HTML as text", () => {
    const html = renderMarkdown('<script>alert("x")</script> <img src=x onerror=alert(1)>');
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
  });

  it("drops links and images to script addresses, however they are spelled", () => {
    for (const address of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "javascript&colon;alert(1)",
      "&#106;avascript:alert(1)",
      "%6Aavascript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
    ]) {
      for (const md of [`[click](${address})`, `![pic](${address})`, `<${address}>`, `[x]: ${address}\n\n[click][x]`]) {
        const html = renderMarkdown(md);
        expect(danger(html), md).toBeNull();
        expect(html.toLowerCase(), md).not.toMatch(/(href|src)="\s*(java|vb)script:/);
      }
    }
  });

  it(`leaves nothing that runs in any of the ${payloads.length} XSS payloads, as text, link, image or autolink`, () => {
    expect(payloads.length).toBeGreaterThan(6000);
    const variants = [
      (p: string) => p,
      (p: string) => `[link](${p})`,
      (p: string) => `![image](${p})`,
      (p: string) => `<${p}>`,
    ];
    const failures: string[] = [];
    // Rendered 50 to a document (parsing is what costs in jsdom); a document with a problem is checked line by line.
    // Twenty problems are enough to see what went wrong (and checking line by line is slow in jsdom).
    for (let i = 0; i < payloads.length && failures.length < 20; i += 50) {
      const batch = payloads.slice(i, i + 50);
      for (const variant of variants) {
        const lines = batch.map(variant);
        if (danger(renderMarkdown(lines.join("\n\n"))) === null) continue;
        const before = failures.length;
        for (const md of lines) {
          const problem = danger(renderMarkdown(md));
          if (problem) failures.push(`${problem} from ${JSON.stringify(md).slice(0, 120)}`);
        }
        if (failures.length === before) failures.push(`only together: ${JSON.stringify(lines).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
