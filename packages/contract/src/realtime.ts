import { z } from "zod";
import { actorRefSchema, EVENT_TYPES } from "./events.ts";

/**
 * The realtime protocol (one WebSocket at /api/realtime). The client authenticates in its first frame, never in the
 * URL, then subscribes to topics; the server checks every subscription against the actor and its organization.
 *
 * Topics name things within the actor's own organization, which the server knows from the token:
 * - `tickets`: the organization's tickets (lists, dashboard figures);
 * - `ticket:<id>`: one ticket (its detail, and who else is viewing or replying);
 * - `notifications`: the signed-in member's own notifications.
 */
export const REALTIME_PATH = "/api/realtime";

/** Limits (the server closes or refuses past them). */
export const REALTIME_LIMITS = {
  /** Bytes in one frame from a client. */
  maxFrameBytes: 4096,
  /** Frames a client may send per second (a burst of twice this is allowed). */
  framesPerSecond: 20,
  /** Open sockets per actor (a person with many tabs). */
  socketsPerActor: 20,
  /** Topics one socket may hold. */
  topicsPerSocket: 50,
  /** Time to send the auth frame after connecting. */
  authTimeoutMs: 10_000,
} as const;

/** Close codes, with a reason text. */
export const CLOSE = {
  /** The token was refused, or the session has ended (revoked, expired, user deactivated). */
  unauthorized: 4001,
  /** Too many frames, too many sockets, or no auth in time. */
  policy: 4008,
  /** A frame over maxFrameBytes. */
  tooBig: 1009,
  /** The server is shutting down; reconnect. */
  goingAway: 1001,
} as const;

const topic = z.string().min(1).max(80);

export const clientFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auth"), token: z.string().min(1).max(300) }),
  z.object({ type: z.literal("subscribe"), topic }),
  z.object({ type: z.literal("unsubscribe"), topic }),
  /** On a ticket topic: the sender is replying (sent again every few seconds while they type). */
  z.object({ type: z.literal("typing"), topic }),
  z.object({ type: z.literal("ping") }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export const REALTIME_ERROR_CODES = [
  "BAD_FRAME",
  "NOT_AUTHENTICATED",
  "UNKNOWN_TOPIC",
  "NOT_FOUND",
  "FORBIDDEN",
  "TOO_MANY_TOPICS",
] as const;

export const viewerSchema = z.object({
  user_id: z.uuid(),
  name: z.string(),
  avatar_url: z.string().nullable(),
  typing: z.boolean(),
});
export type Viewer = z.infer<typeof viewerSchema>;

export const serverFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ready"), actor: actorRefSchema }),
  z.object({ type: z.literal("subscribed"), topic }),
  z.object({ type: z.literal("unsubscribed"), topic }),
  z.object({
    type: z.literal("event"),
    topic,
    event: z.object({
      id: z.number().int(),
      type: z.enum(EVENT_TYPES as [string, ...string[]]),
      actor: actorRefSchema,
      occurred_at: z.string(),
      data: z.record(z.string(), z.unknown()),
    }),
  }),
  /** Who else is on a ticket: the full list each time it changes (the receiving member is left out). */
  z.object({ type: z.literal("presence"), topic, viewers: z.array(viewerSchema) }),
  z.object({
    type: z.literal("error"),
    code: z.enum(REALTIME_ERROR_CODES),
    message: z.string(),
    topic: topic.optional(),
  }),
  z.object({ type: z.literal("pong") }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;
