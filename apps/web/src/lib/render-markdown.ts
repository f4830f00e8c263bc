import { markdownRenderer } from "@cove/markdown/render-markdown.ts";

/** An article's Markdown (the help center, the article editor's preview) to HTML that is safe to put in the page (the shared renderer: packages/markdown). */
export const renderMarkdown = markdownRenderer(window);

/** A chat message's Markdown (an assistant's answer): the same, with its line breaks kept. */
export const renderChatMarkdown = markdownRenderer(window, { breaks: true });
