import type { ChatSenderType } from "@cove/contract/chat.ts";
import { CHAT_HANDOFF_NOTICE } from "@cove/contract/chat.ts";
import { and, eq } from "drizzle-orm";
import { EMBEDDED_PROVIDER } from "../modules/ai/index.ts";
import { findOrCreateContact } from "../modules/contacts/index.ts";
import { kbSlug } from "../modules/kb/index.ts";
import type { Tx } from "../platform/db.ts";
import { aiAnswers } from "./schema/ai.ts";
import { chatMessages, chatSessions } from "./schema/chat.ts";
import { kbArticles } from "./schema/kb.ts";

type Line = [sender: ChatSenderType, text: string, minutesIn: number];

interface DemoChat {
  visitor: string;
  email: string | null;
  /** When it started, minutes ago. */
  startedMinutesAgo: number;
  lines: Line[];
  /** The title of the help-center article the assistant answered from, when it answered. */
  source?: string;
  /** The member (index in the team) who answered, if any. */
  agent: number | null;
  closed: boolean;
  handedOff: boolean;
}

const MINUTE = 60_000;

/** A few past and current conversations, so /chat, its figures and the AI's share show something real. */
const DEMO_CHATS: DemoChat[] = [
  {
    visitor: "Jordan Lee",
    email: "jordan.lee@example.com",
    startedMinutesAgo: 26 * 60,
    agent: null,
    closed: true,
    handedOff: false,
    source: "How do I return an item?",
    lines: [
      ["ai", "Hi! I'm the virtual assistant. How can I help you today?", 0],
      ["visitor", "How long do I have to return a tent?", 1],
      ["ai", "You can return unused items within 30 days of delivery for a full refund.", 1],
      ["visitor", "Great, thanks!", 2],
    ],
  },
  {
    visitor: "Mia Chen",
    email: "mia.chen@example.com",
    startedMinutesAgo: 50 * 60,
    agent: 1,
    closed: true,
    handedOff: true,
    lines: [
      ["ai", "Hi! I'm the virtual assistant. How can I help you today?", 0],
      ["visitor", "My order arrived with a broken pole. Can I talk to a person?", 1],
      ["ai", "Of course. I'll connect you with a person from our team.", 1],
      ["system", CHAT_HANDOFF_NOTICE, 1],
      ["agent", "Hi Mia, Marco here. Sorry about that! I'm sending a replacement pole today.", 4],
      ["visitor", "Perfect, thank you Marco.", 6],
    ],
  },
  {
    visitor: "Visitor",
    email: null,
    startedMinutesAgo: 6,
    agent: null,
    closed: false,
    handedOff: true,
    lines: [
      ["ai", "Hi! I'm the virtual assistant. How can I help you today?", 0],
      ["visitor", "Do you ship kayaks to Canada? I need a person to confirm the customs fees.", 1],
      ["ai", "Of course. I'll connect you with a person from our team.", 1],
      ["system", CHAT_HANDOFF_NOTICE, 2],
    ],
  },
  {
    visitor: "Sam Rivera",
    email: "sam.rivera@example.com",
    startedMinutesAgo: 15,
    agent: 2,
    closed: false,
    handedOff: true,
    lines: [
      ["ai", "Hi! I'm the virtual assistant. How can I help you today?", 0],
      ["visitor", "I'd like to speak to someone about a bulk order for our scout group.", 1],
      ["ai", "Of course. I'll connect you with a person from our team.", 1],
      ["system", CHAT_HANDOFF_NOTICE, 1],
      ["agent", "Hi Sam, Priya here. Happy to help: how many sleeping bags are you thinking of?", 3],
      ["visitor", "About 24, mostly the 3-season ones.", 5],
    ],
  },
];

export async function seedDemoChats(tx: Tx, orgId: string, team: { id: string; name: string }[]) {
  const now = Date.now();
  for (const chat of DEMO_CHATS) {
    const started = new Date(now - chat.startedMinutesAgo * MINUTE);
    const at = (minutes: number) => new Date(started.getTime() + minutes * MINUTE);
    const member = chat.agent === null ? null : team[chat.agent];
    const firstHuman = chat.lines.find(([sender]) => sender === "agent");
    const handoff = chat.lines.find(([sender]) => sender === "system");
    const last = chat.lines.at(-1);
    const contactId = await findOrCreateContact({ orgId, db: tx }, { name: chat.visitor, email: null });
    const [row] = await tx
      .insert(chatSessions)
      .values({
        organizationId: orgId,
        contactId,
        visitorName: chat.visitor,
        visitorEmail: chat.email,
        status: chat.closed ? "closed" : "active",
        waitingForHuman: !chat.closed && chat.handedOff && !firstHuman,
        waitingSince: !chat.closed && handoff && !firstHuman ? at(handoff[2]) : null,
        handedOffAt: handoff ? at(handoff[2]) : null,
        assignedAgentId: member?.id ?? null,
        firstHumanReplyAt: firstHuman ? at(firstHuman[2]) : null,
        aiReplies: chat.lines.filter(([sender]) => sender === "ai").length - 1,
        resolvedByAi: chat.closed && !chat.handedOff && !firstHuman,
        lastMessage: last?.[1] ?? null,
        lastMessageAt: last ? at(last[2]) : null,
        startedAt: started,
        endedAt: chat.closed ? at((last?.[2] ?? 0) + 2) : null,
      })
      .returning({ id: chatSessions.id });
    if (!row) throw new Error("demo chat insert returned nothing");
    await tx.insert(chatMessages).values(
      chat.lines.map(([sender, text, minutes], i) => ({
        organizationId: orgId,
        sessionId: row.id,
        senderType: sender,
        message: text,
        userId: sender === "agent" ? (member?.id ?? null) : null,
        senderName: sender === "agent" ? (member?.name.split(" ")[0] ?? null) : null,
        // Lines in the same minute keep their order.
        createdAt: new Date(at(minutes).getTime() + i * 1000),
      })),
    );
    await logDemoAnswer(tx, orgId, chat, at);
  }
}

/**
 * The assistant's answer to the chat's first question, logged as a live chat logs it (its resolution rate is measured
 * from these): a hand-off here is the customer asking for a person, certain and not a question it failed.
 */
async function logDemoAnswer(tx: Tx, orgId: string, chat: DemoChat, at: (minutes: number) => Date) {
  const question = chat.lines.find(([sender]) => sender === "visitor");
  if (!question) return;
  const [source] = chat.source
    ? await tx
        .select({ id: kbArticles.id })
        .from(kbArticles)
        .where(and(eq(kbArticles.organizationId, orgId), eq(kbArticles.slug, kbSlug(chat.source, "article"))))
    : [];
  await tx.insert(aiAnswers).values({
    organizationId: orgId,
    channel: "chat",
    question: question[1],
    confidence: chat.handedOff ? 1 : 0.86,
    handoff: chat.handedOff,
    provider: chat.handedOff ? "handoff-request" : EMBEDDED_PROVIDER,
    sourceArticleIds: source ? [source.id] : [],
    latencyMs: 40,
    createdAt: at(question[2]),
  });
}
