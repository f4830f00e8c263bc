import { CHAT_STARTS_PER_ADDRESS_PER_HOUR, chatPublicApi } from "@cove/contract/chat.ts";
import cors from "@fastify/cors";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, inRequest, type RequestTx, sessionEnded } from "../../platform/auth.ts";
import { acceptedEncoding } from "../../platform/encoding.ts";
import { AppError } from "../../platform/errors.ts";
import { recordId } from "../../platform/ids.ts";
import { orgOfSlug } from "../../platform/organizations.ts";
import { addRoute } from "../../platform/routes.ts";
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
 * The visitor's side of live chat (the contract's chatPublicApi), called by the widget on the organization's own
 * website (docs/decisions/2026-11-25-live-chat.md): start a chat, read it, write in it. Also serves the widget's script.
 */
export async function chatPublicRoutes(app: FastifyInstance, opts: { provider: AiProvider }) {
  const deps = { db: app.db, provider: opts.provider, metrics: app.metrics };
  /** The visitor's transactions: a chat's work may take several, with the assistant's answer between them. */
  const visitorTx =
    (req: FastifyRequest): RequestTx<ContactCtx> =>
    (fn) =>
      inRequest(app, req, "contact", fn);
  const messageLimit = { rateLimit: { max: MESSAGES_PER_ADDRESS_PER_MINUTE, timeWindow: "1 minute" } };

  // The widget runs on the organization's own website: its calls come from another origin, with a bearer token and
  // never a cookie, so any origin may make them. The library answers preflights for the widget's paths only (a
  // preflight for any other path is not found, and no staff route carries these headers).
  await app.register(cors, {
    delegator: (req, done) => done(null, WIDGET_PATH.test(req.url) ? WIDGET_CORS : { origin: false }),
  });
  app.addHook("onRequest", async (_req, reply) => {
    reply.header("cross-origin-resource-policy", "cross-origin");
  });
  fileBody(app);

  app.get("/widget.js", {
    config: { access: "public" },
    schema: { hide: true },
    handler: serveWidgetScript,
  });

  addRoute(app, chatPublicApi.widget, {
    handler: async (req, reply) => {
      const look = await branding(app.db, req.params.orgSlug);
      // The launcher asks on every page of the organization's website it shows on: a visitor's browser keeps the
      // answer for five minutes (as long as the script itself), so a saved colour reaches the launcher within that.
      reply.header("cache-control", "public, max-age=300");
      return { name: look.name, brand_color: look.brand_color, logo_url: look.logo_url };
    },
  });

  addRoute(app, chatPublicApi.start, {
    config: { writesTo: orgOfSlug, rateLimit: { max: CHAT_STARTS_PER_ADDRESS_PER_HOUR, timeWindow: "1 hour" } },
    handler: async (req, reply) => {
      const customer = await signedInCustomer(req);
      const who = customer ?? req.body;
      return reply.status(201).send(await startChat(app.db, req.params.orgSlug, who));
    },
  });

  addRoute(app, chatPublicApi.conversation, {
    handler: (req) => readConversation(app.db, visitorOf(req), visitorTx(req), req.params.orgSlug, req.params.id),
  });

  addRoute(app, chatPublicApi.send, {
    config: messageLimit,
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

  addRoute(app, chatPublicApi.sendFile, {
    config: messageLimit,
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

  addRoute(app, chatPublicApi.file, {
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

  addRoute(app, chatPublicApi.feedback, {
    config: messageLimit,
    handler: async (req) => ({
      message: await rateAnswer(app.db, visitorOf(req), visitorTx(req), {
        orgSlug: req.params.orgSlug,
        id: req.params.id,
        messageId: req.params.messageId,
        helpful: req.body.helpful,
      }),
    }),
  });

  addRoute(app, chatPublicApi.rate, {
    handler: async (req) => ({
      session: await rateChat(app.db, visitorOf(req), visitorTx(req), {
        orgSlug: req.params.orgSlug,
        id: req.params.id,
        rating: req.body.rating,
      }),
    }),
  });
}
