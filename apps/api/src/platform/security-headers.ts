import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/** Origins a configured third party needs beyond the app's own (e.g. the card provider's script and frames). */
export interface ExtraSources {
  scriptSrc?: string[];
  connectSrc?: string[];
  frameSrc?: string[];
}

/**
 * helmet's security headers on every answer, with a strict Content-Security-Policy. The middleware is built once:
 * the Fastify plugin (@fastify/helmet) built a new one, directives parsed again, on every request, which cost more
 * than the cached answer it was sent with.
 */
export function registerSecurityHeaders(app: FastifyInstance, allow: ExtraSources = {}): void {
  const apply = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(allow.scriptSrc ?? [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // blob: the thumbnails of a ticket's images, fetched with the session and shown from memory.
        imgSrc: ["'self'", "data:", "https:", "blob:"],
        connectSrc: ["'self'", ...(allow.connectSrc ?? [])],
        frameSrc: ["'self'", ...(allow.frameSrc ?? [])],
        fontSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // Self-hosted installs often run on plain http on a LAN address, where upgrading every asset to https breaks the app.
        upgradeInsecureRequests: null,
      },
    },
  });
  // helmet throws rather than calling back with an error (since 8.1); a thrown error goes to the error handler.
  app.addHook("onRequest", (req, reply, done) => apply(req.raw, reply.raw, () => done()));
}
