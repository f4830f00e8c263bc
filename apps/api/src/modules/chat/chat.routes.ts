import { chatAnswerParams, wrongAnswerAnswer, wrongAnswerBody } from "@cove/contract/ai.ts";
import { uploadAttachmentQuery } from "@cove/contract/attachments.ts";
import {
  CHAT_CLOSED_MESSAGE,
  chatClosedAnswer,
  chatIdParams,
  chatMessageAnswer,
  chatMessageListAnswer,
  chatSessionAnswer,
  chatSessionListAnswer,
  chatStatsAnswer,
  chatTicketAnswer,
  sendChatMessageBody,
  updateChatSessionBody,
} from "@cove/contract/chat.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "../attachments/index.ts";
import { registerChatHandlers } from "./chat.handlers.ts";
import { registerChatTopics } from "./chat.realtime.ts";
import * as service from "./chat.service.ts";
import { staffChatFile } from "./chat-files.ts";
import { chatToTicket } from "./chat-ticket.service.ts";
import { scheduleUnansweredChats } from "./chat-unanswered.ts";
import { markWrongAnswer } from "./wrong-answer.ts";

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
const tags = ["live chat"];
const access = "authenticated" as const;
const chatFileParams = z.object({ id: z.string(), fileId: z.string() });

/** The agent's side of live chat (docs/product.md, "API calls" chat calls, and /chat's take and figures). */
export async function chatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerChatTopics(fastify);
  registerChatHandlers(fastify.events);
  scheduleUnansweredChats(fastify.jobs, fastify.db);
  fileBody(fastify);

  app.get("/api/chat/sessions", {
    config: { access },
    schema: {
      tags,
      summary: "Chat sessions: waiting for a person first, then the most recent",
      response: { 200: chatSessionListAnswer, ...errors },
    },
    handler: async (req) => ({ sessions: await inRequest(app, req, service.listSessions) }),
  });

  app.get("/api/chat/stats", {
    config: { access },
    schema: {
      tags,
      summary: "Active Chats, Closed Today, Avg Response (to a person's first reply), Total Sessions",
      response: { 200: chatStatsAnswer, ...errors },
    },
    handler: (req) => inRequest(app, req, service.chatStats),
  });

  app.get("/api/chat/sessions/:id", {
    config: { access },
    schema: {
      tags,
      summary: "One chat session",
      params: chatIdParams,
      response: { 200: chatSessionAnswer, ...errors },
    },
    handler: async (req) => ({ session: await inRequest(app, req, (ctx) => service.getSession(ctx, req.params.id)) }),
  });

  app.get("/api/chat/sessions/:id/messages", {
    config: { access },
    schema: {
      tags,
      summary: "A session's messages, oldest first",
      params: chatIdParams,
      response: { 200: chatMessageListAnswer, ...errors },
    },
    handler: async (req) => ({
      messages: await inRequest(app, req, (ctx) => service.listMessages(ctx, req.params.id)),
    }),
  });

  app.post("/api/chat/sessions/:id/messages", {
    config: { access },
    schema: {
      tags,
      summary: "Send an agent message (the assistant stays silent in the session from then on)",
      params: chatIdParams,
      body: sendChatMessageBody,
      response: { 201: chatMessageAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send({
        message: await inRequest(app, req, (ctx) => service.sendAgentMessage(ctx, req.params.id, req.body.message)),
      }),
  });

  app.post("/api/chat/sessions/:id/files", {
    config: { access, rateLimit: UPLOAD_RATE_LIMIT },
    schema: {
      tags,
      summary: "Send a file as an agent message (the body is the file, application/octet-stream)",
      params: chatIdParams,
      querystring: uploadAttachmentQuery,
      response: { 201: chatMessageAnswer, ...errors, 413: errorSchema, 415: errorSchema },
    },
    handler: async (req, reply) => {
      // An id that is no chat is not found, whatever the body.
      const id = recordId("Chat session", req.params.id);
      const bytes = fileBytes(req.body);
      return reply.status(201).send({
        message: await inRequest(app, req, (ctx) => service.sendAgentFile(ctx, id, req.query.filename, bytes)),
      });
    },
  });

  app.get("/api/chat/sessions/:id/files/:fileId", {
    config: { access },
    schema: {
      tags,
      summary: "A file of a chat: shown inline when a safe image, else a download",
      params: chatFileParams,
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) =>
      sendFile(reply, await inRequest(app, req, (ctx) => staffChatFile(ctx, req.params.id, req.params.fileId))),
  });

  app.put("/api/chat/sessions/:id", {
    config: { access },
    schema: {
      tags,
      summary: "Close a session (status: closed)",
      params: chatIdParams,
      body: updateChatSessionBody,
      response: { 200: chatClosedAnswer, ...errors },
    },
    handler: async (req) => ({
      message: CHAT_CLOSED_MESSAGE,
      session: await inRequest(app, req, (ctx) => service.closeSession(ctx, req.params.id)),
    }),
  });

  app.post("/api/chat/sessions/:id/ticket", {
    config: { access },
    schema: {
      tags,
      summary: "Create a ticket from the conversation, with its transcript (the session becomes transferred)",
      params: chatIdParams,
      response: { 201: chatTicketAnswer, ...errors },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await inRequest(app, req, (ctx) => chatToTicket(ctx, req.params.id))),
  });

  app.post("/api/chat/sessions/:id/take", {
    config: { access },
    schema: {
      tags,
      summary: "Take a session: it is assigned to you",
      params: chatIdParams,
      response: { 200: chatSessionAnswer, ...errors },
    },
    handler: async (req) => ({ session: await inRequest(app, req, (ctx) => service.takeSession(ctx, req.params.id)) }),
  });

  app.post("/api/chat/sessions/:id/messages/:messageId/wrong-answer", {
    config: { access: "authenticated" },
    schema: {
      tags: ["ai"],
      summary: "Mark an assistant's answer in a live chat as wrong, naming the right article or none",
      description:
        "`{ article_id }`: a published article of the organization that answers the customer's question, which " +
        "becomes a suggested example question of it (added at once when the organization accepts automatically). " +
        "`{ not_covered: true }`: no article covers it. Either way the answer counts for the hand-off threshold as a " +
        "question that should have been handed off. Only an answer the assistant gave (one a visitor can rate) can " +
        "be marked; any other message, chat or article is not found.",
      params: chatAnswerParams,
      body: wrongAnswerBody,
      response: { 200: wrongAnswerAnswer, ...errors },
    },
    handler: (req) =>
      inRequest(app, req, (ctx) =>
        markWrongAnswer(ctx, { sessionId: req.params.id, messageId: req.params.messageId }, req.body),
      ),
  });
}
