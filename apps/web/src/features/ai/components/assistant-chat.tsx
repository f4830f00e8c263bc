import type { AiResponseAnswer, ConversationTurn } from "@cove/contract/ai.ts";
import { AI_MESSAGE_MAX } from "@cove/contract/ai.ts";
import { clsx } from "clsx";
import { Bot, Send, ThumbsDown, ThumbsUp } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { MarkdownView } from "../../../components/markdown-view.tsx";
import { ReplyDetails } from "./assistant-reply.tsx";

export interface ChatReply {
  answer: AiResponseAnswer;
  /** Shown beside the confidence, e.g. that this is a canned reply because the assistant could not be reached. */
  note?: string;
}

type Message =
  | { id: number; role: "user"; text: string }
  | { id: number; role: "assistant"; text: string; reply?: ChatReply };

/** Earlier turns sent along with a question, so a follow-up ("and to Canada?") is understood. */
const CONTEXT_TURNS = 10;

interface AssistantChatProps {
  /** Accessible name of the conversation. */
  label: string;
  greeting: string;
  quickQuestions?: readonly string[];
  /** Answers a question; a rejection is shown by `onError` and the question stays in the box. */
  ask: (message: string, conversation: ConversationTurn[]) => Promise<ChatReply>;
  onError?: (error: unknown) => void;
  placeholder?: string;
  /** Height of the message list, e.g. "h-96". */
  heightClassName?: string;
  /** Records a thumbs up or down on a logged answer; without it, answers cannot be rated. */
  rate?: (answerId: string, helpful: boolean) => Promise<void>;
}

/**
 * A chat with the assistant: its greeting, optional quick questions, the conversation with each reply's confidence,
 * suggested actions and sources, a thinking indicator while it answers, and a box where Enter sends. Text typed by a
 * person is rendered as text.
 */
export function AssistantChat({
  label,
  greeting,
  quickQuestions = [],
  ask,
  onError,
  placeholder = "Ask a question…",
  heightClassName = "h-[28rem]",
  rate,
}: AssistantChatProps) {
  const id = useId();
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState("");
  const [thinking, setThinking] = useState(false);
  const nextId = useRef(1);
  const listRef = useRef<HTMLElement>(null);

  const count = messages.length;
  // Keep the newest message in view inside the conversation, without scrolling the page itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever a message or the indicator appears.
  useEffect(() => {
    const list = listRef.current;
    if (list && count > 0) list.scrollTop = list.scrollHeight;
  }, [count, thinking]);

  async function send(text: string) {
    const message = text.trim();
    // The spec: empty messages are ignored (and one question at a time).
    if (!message || thinking) return;
    const conversation: ConversationTurn[] = messages
      .slice(-CONTEXT_TURNS)
      .map((m) => ({ role: m.role, content: m.text.slice(0, AI_MESSAGE_MAX) }));
    setMessages((list) => [...list, { id: nextId.current++, role: "user", text: message }]);
    setDraft("");
    setThinking(true);
    try {
      const reply = await ask(message, conversation);
      setMessages((list) => [...list, { id: nextId.current++, role: "assistant", text: reply.answer.response, reply }]);
    } catch (error) {
      // Nothing typed is lost: the question goes back into the box.
      setMessages((list) => list.slice(0, -1));
      setDraft(message);
      onError?.(error);
    } finally {
      setThinking(false);
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send(draft);
  };

  return (
    <div className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <section
        ref={listRef}
        aria-label={label}
        // relative: the screen reader's "You:" / "Assistant:" labels are absolutely placed (sr-only); without a
        // positioned scroller they escape its clipping and lengthen the page below the footer as the chat grows.
        className={clsx("relative space-y-4 overflow-y-auto overscroll-contain bg-slate-50/60 p-4", heightClassName)}
      >
        <AssistantBubble text={greeting} />
        {messages.map((m) =>
          m.role === "user" ? (
            <div key={m.id} className="flex justify-end">
              <p className="max-w-[85%] rounded-2xl rounded-br-sm bg-indigo-600 px-3.5 py-2 text-sm whitespace-pre-wrap break-words text-white">
                <span className="sr-only">You: </span>
                {m.text}
              </p>
            </div>
          ) : (
            <AssistantBubble key={m.id} text={m.text} reply={m.reply} rate={rate} />
          ),
        )}
        {thinking && (
          <div role="status" className="flex items-center gap-2 text-sm text-slate-500">
            <Bot className="size-4 text-indigo-600" aria-hidden="true" />
            <span>Assistant is thinking</span>
            <span className="flex gap-1" aria-hidden="true">
              <span className="size-1.5 animate-bounce rounded-full bg-slate-400 [animation-delay:-0.3s]" />
              <span className="size-1.5 animate-bounce rounded-full bg-slate-400 [animation-delay:-0.15s]" />
              <span className="size-1.5 animate-bounce rounded-full bg-slate-400" />
            </span>
          </div>
        )}
      </section>
      {quickQuestions.length > 0 && (
        <fieldset className="border-t border-slate-200 px-4 py-3">
          <legend className="sr-only">Quick questions</legend>
          <p aria-hidden="true" className="text-xs font-medium text-slate-500">
            Quick questions
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            {quickQuestions.map((q) => (
              <button
                key={q}
                type="button"
                disabled={thinking}
                onClick={() => void send(q)}
                className="rounded-full border border-indigo-200 bg-indigo-50 px-3 py-1 text-sm text-indigo-800 hover:bg-indigo-100 disabled:cursor-not-allowed disabled:opacity-60"
              >
                {q}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      <form onSubmit={onSubmit} className="flex gap-2 border-t border-slate-200 p-3">
        <label htmlFor={`${id}-message`} className="sr-only">
          Your question
        </label>
        <input
          id={`${id}-message`}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          maxLength={AI_MESSAGE_MAX}
          autoComplete="off"
          placeholder={placeholder}
          className="block min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-500/40"
        />
        <button
          type="submit"
          disabled={thinking || draft.trim() === ""}
          className="inline-flex h-10 items-center gap-2 rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:cursor-not-allowed disabled:bg-indigo-400"
        >
          <Send className="size-4" aria-hidden="true" />
          Send
        </button>
      </form>
    </div>
  );
}

function AssistantBubble({
  text,
  reply,
  rate,
}: {
  text: string;
  reply?: ChatReply;
  rate?: (answerId: string, helpful: boolean) => Promise<void>;
}) {
  // An answer quotes a passage of an article; the whole article is one click away.
  const article = reply && !reply.answer.handoff ? reply.answer.sources[0] : undefined;
  return (
    <div className="flex gap-2">
      <span className="mt-1 flex size-7 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
        <Bot className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 max-w-[85%]">
        <div className="rounded-2xl rounded-tl-sm border border-slate-200 bg-white px-3.5 py-2 text-slate-800 shadow-xs">
          <span className="sr-only">Assistant: </span>
          <MarkdownView source={text} chat />
          {article && (
            <p className="mt-2 text-sm">
              <a
                href={article.url}
                target="_blank"
                rel="noopener"
                title={article.title}
                className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
              >
                Read the full article
              </a>
            </p>
          )}
        </div>
        {reply && <ReplyDetails reply={reply.answer} note={reply.note} />}
        {reply?.answer.answerId && rate && <RateAnswer answerId={reply.answer.answerId} rate={rate} />}
      </div>
    </div>
  );
}

/** Thumbs up or down on an answer: the team sees the unhelpful ones among the questions the assistant could not answer. */
function RateAnswer({
  answerId,
  rate,
}: {
  answerId: string;
  rate: (answerId: string, helpful: boolean) => Promise<void>;
}) {
  const [rated, setRated] = useState<boolean | null>(null);
  const [failed, setFailed] = useState(false);
  const choose = async (helpful: boolean) => {
    setFailed(false);
    try {
      await rate(answerId, helpful);
      setRated(helpful);
    } catch {
      setFailed(true);
    }
  };
  const button = (helpful: boolean) =>
    clsx(
      "inline-flex items-center gap-1 rounded-md border px-2 py-0.5",
      rated === helpful
        ? "border-indigo-300 bg-indigo-50 text-indigo-800"
        : "border-slate-200 bg-white text-slate-600 hover:bg-slate-50",
    );
  return (
    <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs">
      <span className="text-slate-500">Was this helpful?</span>
      <button type="button" aria-pressed={rated === true} className={button(true)} onClick={() => void choose(true)}>
        <ThumbsUp className="size-3.5" aria-hidden="true" />
        Yes
      </button>
      <button type="button" aria-pressed={rated === false} className={button(false)} onClick={() => void choose(false)}>
        <ThumbsDown className="size-3.5" aria-hidden="true" />
        No
      </button>
      <span role="status" className="text-slate-500">
        {failed ? "Your feedback could not be sent. Try again." : rated !== null ? "Thanks for the feedback" : ""}
      </span>
    </div>
  );
}
