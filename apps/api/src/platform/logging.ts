import { DrizzleQueryError } from "drizzle-orm/errors";
import type { FastifyRequest, FastifyServerOptions } from "fastify";
import { stdSerializers } from "pino";

/**
 * A query parameter whose value is a secret: the single-use links' tokens (/accept-invite?token=,
 * /reset-password?token=, /portal/{slug}?token=, the survey's link), and any other name that says it holds one.
 */
const SECRET_NAME = /token|secret|passw|signature|^(?:code|key|sig|otp)$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * A URL as the log may hold it: the value of every secret query parameter replaced by [redacted], wherever it stands
 * and however its name is written (upper case, percent-encoded); so is a value that is itself an address carrying one
 * (?next=%2Faccept-invite%3Ftoken%3D...).
 */
export function redactUrl(url: string): string {
  const start = url.indexOf("?");
  if (start < 0) return url;
  const end = url.indexOf("#", start);
  const query = url.slice(start + 1, end < 0 ? undefined : end);
  const redacted = query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      const value = decoded(pair.slice(eq + 1));
      const nested = value.includes("?") && redactUrl(value) !== value;
      return SECRET_NAME.test(decoded(name)) || nested ? `${name}=[redacted]` : pair;
    })
    .join("&");
  return `${url.slice(0, start + 1)}${redacted}${end < 0 ? "" : url.slice(end)}`;
}

/**
 * A failed statement's error as the log may hold it: without its parameters, which can be anything a request wrote
 * (a queued email with its link's token, a password hash). The statement's text and the database's own error stay.
 */
function withoutParams(err: unknown): unknown {
  if (!(err instanceof DrizzleQueryError)) return err;
  const safe = new Error(`Failed query: ${err.query}`, { cause: err.cause });
  safe.name = "DrizzleQueryError";
  const frames = (err.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  safe.stack = [`${safe.name}: ${safe.message}`, ...frames].join("\n");
  return safe;
}

/**
 * What every log line of the app may hold (docs/engineering.md, "Security": logs never hold tokens): requests with their
 * secret query parameters redacted (the pages of the emailed links carry a token in their address), and errors
 * without statement parameters.
 */
export const logSerializers = {
  req: (req: FastifyRequest) => ({
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }),
  err: (err: Error) => stdSerializers.err(withoutParams(err) as Error),
};

/** The app's logger options: the caller's (level, destination, redaction) with the serializers above. */
export function withLogSerializers(logger: FastifyServerOptions["logger"]): FastifyServerOptions["logger"] {
  if (!logger) return false;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...options.serializers, ...logSerializers } };
}

const LEVEL_NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};

/** One JSON log line as a person reads it: "14:02:07 WARN  message (GET /api/x 401)", then the error's stack. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const time = new Date(typeof entry.time === "number" ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = (LEVEL_NAMES[entry.level as number] ?? String(entry.level)).padEnd(5);
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  const request = req?.method ? ` (${req.method} ${req.url ?? ""}${res?.statusCode ? ` ${res.statusCode}` : ""})` : "";
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const detail = err ? `\n${err.stack ?? err.message ?? ""}` : "";
  return `${time} ${level} ${String(entry.msg ?? "")}${request}${detail}\n`;
}

/** A log destination writing pretty lines to out (LOG_FORMAT=pretty, the default outside production). */
export function prettyStream(out: NodeJS.WritableStream = process.stdout): { write(line: string): void } {
  return { write: (line) => void out.write(prettyLine(line)) };
}
