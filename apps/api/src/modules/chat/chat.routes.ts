import { CHAT_CLOSED_MESSAGE, chatApi } from "@cove/contract/chat.ts";
import type { FastifyInstance } from "fastify";
import { inRequest } from "../../platform/auth.ts";
import { recordId } from "../../platform/ids.ts";
import { addRoute } from "../../platform/routes.ts";
import { fileBody, fileBytes, sendFile, UPLOAD_RATE_LIMIT } from "../attachments/index.ts";
import { registerChatHandlers } from "./chat.handlers.ts";
import { registerChatTopics } from "./chat.realtime.ts";
import * as service from "./chat.service.ts";
import { staffChatFile } from "./chat-files.ts";
import { chatToTicket } from "./chat-ticket.service.ts";
import { scheduleUnansweredChats } from "./chat-unanswered.ts";
import { markWrongAnswer } from "./wrong-answer.ts";

/**
 * The agent's side of live chat (the contract's chatApi; docs/product.md, "API calls" chat calls, and /chat's take and
 * figures).
 */
export async function chatRoutes(app: FastifyInstance) {
  registerChatTopics(app);
  registerChatHandlers(app.events);
  scheduleUnansweredChats(app.jobs, app.db);
  fileBody(app);

  addRoute(app, chatApi.sessions, {
    handler: async (req) => ({ sessions: await inRequest(app, req, service.listSessions) }),
  });

  addRoute(app, chatApi.stats, { handler: (req) => inRequest(app, req, service.chatStats) });

  addRoute(app, chatApi.session, {
    handler: async (req) => ({ session: await inRequest(app, req, (ctx) => service.getSession(ctx, req.params.id)) }),
  });

  addRoute(app, chatApi.messages, {
    handler: async (req) => ({
      messages: await inRequest(app, req, (ctx) => service.listMessages(ctx, req.params.id)),
    }),
  });

  addRoute(app, chatApi.send, {
    handler: async (req, reply) =>
      reply.status(201).send({
        message: await inRequest(app, req, (ctx) => service.sendAgentMessage(ctx, req.params.id, req.body.message)),
      }),
  });

  addRoute(app, chatApi.sendFile, {
    config: { rateLimit: UPLOAD_RATE_LIMIT },
    handler: async (req, reply) => {
      // An id that is no chat is not found, whatever the body.
      const id = recordId("Chat session", req.params.id);
      const bytes = fileBytes(req.body);
      return reply.status(201).send({
        message: await inRequest(app, req, (ctx) => service.sendAgentFile(ctx, id, req.query.filename, bytes)),
      });
    },
  });

  addRoute(app, chatApi.file, {
    handler: async (req, reply) =>
      sendFile(reply, await inRequest(app, req, (ctx) => staffChatFile(ctx, req.params.id, req.params.fileId))),
  });

  addRoute(app, chatApi.close, {
    handler: async (req) => ({
      message: CHAT_CLOSED_MESSAGE,
      session: await inRequest(app, req, (ctx) => service.closeSession(ctx, req.params.id)),
    }),
  });

  addRoute(app, chatApi.toTicket, {
    handler: async (req, reply) =>
      reply.status(201).send(await inRequest(app, req, (ctx) => chatToTicket(ctx, req.params.id))),
  });

  addRoute(app, chatApi.take, {
    handler: async (req) => ({ session: await inRequest(app, req, (ctx) => service.takeSession(ctx, req.params.id)) }),
  });

  addRoute(app, chatApi.wrongAnswer, {
    handler: (req) =>
      inRequest(app, req, (ctx) =>
        markWrongAnswer(ctx, { sessionId: req.params.id, messageId: req.params.messageId }, req.body),
      ),
  });
}
