import { uploadAttachmentQuery } from "@cove/contract/attachments.ts";
import {
  CHAT_STARTS_PER_ADDRESS_PER_HOUR,
  chatMessageAnswer,
  chatMessageListAnswer,
  rateAnswerBody,
  rateChatBody,
  sendChatMessageBody,
  startChatAnswer,
  startChatBody,
  visitorConversationAnswer,
  visitorMessageParams,
  visitorOrgParams,
  visitorParams,
  visitorSessionSchema,
  widgetLookAnswer,
} from "@cove/contract/chat.ts";
import { errorSchema } from "@cove/contract/errors.ts";
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { bearerToken, inRequest, type RequestTx, sessionEnded } from "../../platform/auth.ts";
import { acceptedEncoding } from "../../platform/encoding.ts";
import { AppError } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import { orgOfSlug } from "../../platform/organizations.ts";
import type { ContactCtx, ContactPrincipal } from "../../platform/tenancy.ts";
import type { AiProvider } from "../ai/index.ts";
import { fileBody, fileBytes, sendFile } from "../attachments/index.ts";
import { branding } from "../settings/index.ts";
import { visitorChatFile } from "./chat-files.ts";
import {
  rateAnswer,
  rateChat,
  readConversation,
  sendVisitorFile,
  sendVisitorMessage,
  startChat,
} from "./chat-visitor.service.ts";
import { widgetScript } from "./widget.ts";

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
};
const tags = ["live chat (visitors)"];
/** A visitor's routes: the visitor token (a contact token) only; staff tokens are refused. */
const visitor = { access: "authenticated", actors: ["contact"] } as const;
/** Messages one address may send per minute, across visitors (each visitor is also paced: CHAT_VISITOR_MESSAGES). */
const MESSAGES_PER_ADDRESS_PER_MINUTE = 60;

function visitorOf(req: FastifyRequest): ContactPrincipal {
  const who = req.principal;
  if (!who) throw sessionEnded();
  if (who.kind !== "contact") throw new AppError("FORBIDDEN", "This is only for visitors chatting with the team.");
  return who;
}

/**
 * A customer signed in to the portal who opens the chat there: its token, when one is sent. A token that is sent but
 * is not a customer's valid one is refused rather than ignored.
 */
async function signedInCustomer(req: FastifyRequest): Promise<{ customer: ContactPrincipal; token: string } | null> {
  if (req.headers.authorization === undefined) return null;
  const token = bearerToken(req.headers.authorization);
  const found = token ? (await req.server.authenticator.authenticate(token))?.principal : null;
  if (!token || !found) throw sessionEnded();
  if (found.kind !== "contact") throw new AppError("FORBIDDEN", "This is only for visitors chatting with the team.");
  return { customer: found, token };
}

/** What the widget calls: its script and the public chat API of an organization. */
const WIDGET_PATH = /^\/(widget\.js|api\/public\/[^/]+\/chat\/)/;
const WIDGET_CORS = {
  origin: "*",
  methods: ["GET", "POST", "PUT"],
  allowedHeaders: ["authorization", "content-type"],
  maxAge: 600,
};

/** The widget's script, compressed when the browser takes it, and a 304 when the browser's copy is current. */
async function serveWidgetScript(req: FastifyRequest, reply: FastifyReply) {
  const script = await widgetScript();
  // Its address is in every customer's website, so it cannot carry a hash: browsers keep it for 10 minutes, then
  // use it while they check for a new one (a 304 when unchanged), so a fix reaches every site within a visit or two.
  reply
    .header("content-type", "text/javascript; charset=utf-8")
    .header("cache-control", "public, max-age=600, stale-while-revalidate=86400")
    .header("etag", script.etag)
    .header("vary", "accept-encoding");
  const known = String(req.headers["if-none-match"] ?? "")
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""));
  if (known.includes(script.etag) || known.includes("*")) return reply.code(304).send();
  const encoding = acceptedEncoding(req.headers["accept-encoding"]);
  if (encoding) return reply.header("content-encoding", encoding).send(script[encoding]);
  return reply.send(script.body);
}

/**
 * The visitor's side of live chat, called by the widget on the organization's own website
 * (docs/decisions/2026-11-25-live-chat.md): start a chat, read it, write in it. Also serves the widget's script.
 */
export async function chatPublicRoutes(fastify: FastifyInstance, opts: { provider: AiProvider }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = { db: app.db, provider: opts.provider, metrics: app.metrics };
  /** The visitor's transactions: a chat's work may take several, with the assistant's answer between them. */
  const visitorTx =
    (req: FastifyRequest): RequestTx<ContactCtx> =>
    (fn) =>
      inRequest(app, req, "contact", fn);

  // The widget runs on the organization's own website: its calls come from another origin, with a bearer token and
  // never a cookie, so any origin may make them. The library answers preflights for the widget's paths only (a
  // preflight for any other path is not found, and no staff route carries these headers).
  await fastify.register(cors, {
    delegator: (req, done) => done(null, WIDGET_PATH.test(req.url) ? WIDGET_CORS : { origin: false }),
  });
  fastify.addHook("onRequest", async (_req, reply) => {
    reply.header("cross-origin-resource-policy", "cross-origin");
  });
  fileBody(fastify);

  app.get("/widget.js", {
    config: { access: "public" },
    schema: { hide: true },
    handler: serveWidgetScript,
  });

  app.get("/api/public/:orgSlug/chat/widget", {
    config: { access: "public" },
    schema: {
      tags,
      summary: "What the widget shows from the start: the organization's name, brand colour and logo",
      params: visitorOrgParams,
      response: { 200: widgetLookAnswer, ...errors },
    },
    handler: async (req, reply) => {
      const look = await branding(app.db, req.params.orgSlug);
      // The launcher asks on every page of the organization's website it shows on: a visitor's browser keeps the
      // answer for five minutes (as long as the script itself), so a saved colour reaches the launcher within that.
      reply.header("cache-control", "public, max-age=300");
      return { name: look.name, brand_color: look.brand_color, logo_url: look.logo_url };
    },
  });

  app.post("/api/public/:orgSlug/chat/sessions", {
    config: {
      access: "public",
      writesTo: orgOfSlug,
      rateLimit: { max: CHAT_STARTS_PER_ADDRESS_PER_HOUR, timeWindow: "1 hour" },
    },
    schema: {
      tags,
      summary: "Start a chat (name and email optional): answers the visitor's token and the assistant's greeting",
      params: visitorOrgParams,
      body: startChatBody,
      response: { 201: startChatAnswer, ...errors },
    },
    handler: async (req, reply) => {
      const customer = await signedInCustomer(req);
      const who = customer ?? req.body;
      return reply.status(201).send(await startChat(app.db, req.params.orgSlug, who));
    },
  });

  app.get("/api/public/:orgSlug/chat/sessions/:id", {
    config: visitor,
    schema: {
      tags,
      summary: "Your chat and its messages",
      params: visitorParams,
      response: { 200: visitorConversationAnswer, ...errors },
    },
    handler: (req) => readConversation(app.db, visitorOf(req), visitorTx(req), req.params.orgSlug, req.params.id),
  });

  app.post("/api/public/:orgSlug/chat/sessions/:id/messages", {
    config: { ...visitor, rateLimit: { max: MESSAGES_PER_ADDRESS_PER_MINUTE, timeWindow: "1 minute" } },
    schema: {
      tags,
      summary: "Write in your chat: answers your message and, while it has the chat, the assistant's reply",
      params: visitorParams,
      body: sendChatMessageBody,
      response: { 201: chatMessageListAnswer, ...errors },
    },
    handler: async (req, reply) => {
      const who = visitorOf(req);
      const messages = await sendVisitorMessage(deps, who, visitorTx(req), {
        orgSlug: req.params.orgSlug,
        id: req.params.id,
        message: req.body.message,
      });
      return reply.status(201).send({ messages });
    },
  });

  app.post("/api/public/:orgSlug/chat/sessions/:id/files", {
    config: { ...visitor, rateLimit: { max: MESSAGES_PER_ADDRESS_PER_MINUTE, timeWindow: "1 minute" } },
    schema: {
      tags,
      summary: "Send a file in your chat (the body is the file, application/octet-stream)",
      params: visitorParams,
      querystring: uploadAttachmentQuery,
      response: { 201: chatMessageAnswer, ...errors, 413: errorSchema, 415: errorSchema },
    },
    handler: async (req, reply) => {
      const who = visitorOf(req);
      // An id that is no chat is not found, whatever the body.
      const id = recordId("Chat session", req.params.id);
      const bytes = fileBytes(req.body);
      const message = await sendVisitorFile(app.db, who, visitorTx(req), {
        orgSlug: req.params.orgSlug,
        id,
        filename: req.query.filename,
        bytes,
      });
      return reply.status(201).send({ message });
    },
  });

  app.get("/api/public/:orgSlug/chat/sessions/:id/files/:fileId", {
    config: visitor,
    schema: {
      tags,
      summary: "A file of your chat: shown inline when a safe image, else a download",
      params: visitorParams.extend({ fileId: z.string() }),
      response: { 200: z.unknown().describe("The file's bytes"), ...errors },
    },
    handler: async (req, reply) =>
      sendFile(
        reply,
        await visitorChatFile(
          app.db,
          visitorOf(req),
          visitorTx(req),
          req.params.orgSlug,
          req.params.id,
          req.params.fileId,
        ),
      ),
  });

  app.put("/api/public/:orgSlug/chat/sessions/:id/messages/:messageId/feedback", {
    config: { ...visitor, rateLimit: { max: MESSAGES_PER_ADDRESS_PER_MINUTE, timeWindow: "1 minute" } },
    schema: {
      tags,
      summary: "Was this helpful? on one of the assistant's answers in your chat (a later answer replaces it)",
      description:
        "helpful true is a thumbs up, false a thumbs down; it counts on the AI Assistant page as a rating on /ai-test " +
        "does. Only answers of the assistant in your own chat can be rated; anything else is not found.",
      params: visitorMessageParams,
      body: rateAnswerBody,
      response: { 200: chatMessageAnswer, ...errors },
    },
    handler: async (req) => ({
      message: await rateAnswer(app.db, visitorOf(req), visitorTx(req), {
        orgSlug: req.params.orgSlug,
        id: req.params.id,
        messageId: req.params.messageId,
        helpful: req.body.helpful,
      }),
    }),
  });

  app.put("/api/public/:orgSlug/chat/sessions/:id/rating", {
    config: visitor,
    schema: {
      tags,
      summary: "Answer How did we do? once your chat has ended (good or bad)",
      params: visitorParams,
      body: rateChatBody,
      response: { 200: z.object({ session: visitorSessionSchema }), ...errors },
    },
    handler: async (req) => ({
      session: await rateChat(app.db, visitorOf(req), visitorTx(req), {
        orgSlug: req.params.orgSlug,
        id: req.params.id,
        rating: req.body.rating,
      }),
    }),
  });
}
