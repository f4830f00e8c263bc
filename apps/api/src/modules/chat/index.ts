// The chat module's front door: what other modules and app.ts may use of it (scripts/check-boundaries.mjs).

export { chatIdsOfContact, customerChats, deleteChatsOfContact } from "./chat.privacy.ts";
export { anyChatStarted, chatRatings, chatsOfContact, selectMessages, selectSession } from "./chat.queries.ts";
export { chatsByDay, chatsByHour } from "./chat.reports.ts";
export { chatRoutes } from "./chat.routes.ts";
export { chatPublicRoutes } from "./chat-public.routes.ts";
