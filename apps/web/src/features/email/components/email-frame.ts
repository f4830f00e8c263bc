import DOMPurify from "dompurify";

/** Our own instance, so its hooks never affect another use of DOMPurify. */
const purifier = DOMPurify(window);

/** Addresses an email may keep for images: none from the network (a remote image tells the sender you read it). */
const INLINE_IMAGE = /^data:image\/(png|gif|jpeg|webp);/i;

purifier.addHook("afterSanitizeAttributes", (node) => {
  for (const name of ["src", "srcset", "background", "poster"]) {
    const value = node.getAttribute(name);
    if (value !== null && !(name === "src" && INLINE_IMAGE.test(value))) node.removeAttribute(name);
  }
  if (node.tagName === "A" && node.getAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer nofollow");
  }
});

/**
 * A stranger's HTML made into a document that can only be looked at, three times over: DOMPurify keeps markup and
 * inline styles but no script, form, frame or event handler and no network image; the document's own policy allows
 * nothing to load or run; and the frame that shows it is sandboxed (no scripts, no same origin).
 */
export function emailDocument(html: string): string {
  const clean = purifier.sanitize(html, {
    FORBID_TAGS: [
      "style",
      "form",
      "input",
      "button",
      "textarea",
      "select",
      "iframe",
      "object",
      "embed",
      "link",
      "meta",
      "base",
    ],
    ALLOW_DATA_ATTR: false,
  });
  return [
    "<!doctype html><html><head>",
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    '<meta charset="utf-8"><style>body{font:14px/1.5 system-ui,sans-serif;color:#1e293b;margin:16px;word-wrap:break-word}img{max-width:100%;height:auto}</style>',
    `</head><body>${clean}</body></html>`,
  ].join("");
}
