// The chat module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).
import type { FastifyInstance } from "fastify";
import { chatRoutes } from "./chat.routes.ts";
import { chatPublicRoutes } from "./chat-public.routes.ts";

export { chatIdsOfContact, customerChats, deleteChatsOfContact } from "./chat.privacy.ts";
export { anyChatStarted, chatRatings, chatsOfContact, selectMessages, selectSession } from "./chat.queries.ts";
export { chatsByDay, chatsByHour } from "./chat.reports.ts";

/** Registers the module with the app: its routes, and the event handlers and schedules that come with them. */
export async function register(app: FastifyInstance, opts: Parameters<typeof chatPublicRoutes>[1]): Promise<void> {
  await app.register(chatRoutes);
  await app.register(chatPublicRoutes, opts);
}
