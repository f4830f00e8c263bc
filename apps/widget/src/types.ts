/** What the widget reads from and sends to Cove's public chat API (packages/contract/src/chat.ts, by hand: the
 * widget bundles no schema library). */

/** One node of an answer, in document order, under the node at `parent` (-1: the answer): answerNodeSchema. */
export interface AnswerNode {
  parent: number;
  tag: string;
  text?: string;
  href?: string;
  src?: string;
  alt?: string;
  title?: string;
  start?: number;
}
export interface Source {
  id: string;
  title: string;
  url: string;
}
export interface Message {
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
export type Feedback = "up" | "down";
export type Rating = "good" | "bad";
export interface Session {
  id: string;
  status: "active" | "closed" | "transferred";
  rating: Rating | null;
}
export interface Conversation {
  session: Session;
  messages: Message[];
}
/** The visitor's chat, kept in localStorage so it survives reloads. */
export interface Stored {
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

export interface Look {
  name: string;
  brand_color: string;
  logo_url: string | null;
}
