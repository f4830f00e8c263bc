import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import { isInternal } from "../../platform/addresses.ts";

/**
 * The one way Cove posts to a URL an admin gave it: https only, never to an internal address (checked on the address
 * each delivery resolves to, and the connection made to that very address, so a name that resolves to a public
 * address when checked cannot resolve to an internal one when connecting: DNS rebinding), no redirect followed, the
 * body capped, at most RESPONSE_MAX bytes of the answer read, and one deadline for the whole exchange so a slow
 * receiver cannot hold a worker. WEBHOOKS_ALLOW_PRIVATE_HOSTS lifts the address check and allows http (tests, a
 * receiver on the same network).
 */

export const RESPONSE_MAX = 2048;
export const BODY_MAX = 256 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Resolves a host name to all its addresses (dns.lookup with all: true; tests inject their own). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family }));

export interface OutboundOptions {
  allowPrivateHosts: boolean;
  timeoutMs: number;
  resolve: Resolver;
}

export interface PostResult {
  /** null: no answer (refused address, connection failure, timeout). */
  status: number | null;
  durationMs: number;
  response: string | null;
  error: string | null;
}

/** A URL Cove will not post to, with the reason an admin reads. */
export class UrlRefused extends Error {}

const PRIVATE_TEXT = "Cove does not send webhooks to private, local or internal network addresses.";

/** Checks a URL's shape (not its addresses): what it was given, made canonical, or UrlRefused. */
export function checkUrlShape(text: string, allowPrivateHosts: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UrlRefused("Enter a full URL, such as https://example.com/webhooks.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UrlRefused("The URL must start with https://.");
  }
  if (url.protocol === "http:" && !allowPrivateHosts) throw new UrlRefused("The URL must start with https://.");
  if (url.username || url.password) throw new UrlRefused("The URL must not contain a user name or password.");
  if (!url.hostname) throw new UrlRefused("Enter a full URL, such as https://example.com/webhooks.");
  return url;
}

const bare = (host: string) => host.replace(/^\[|\]$/g, "");

/** The address to connect to for host: its first address, after checking that none of them is internal. */
export async function checkedAddress(host: string, opts: OutboundOptions): Promise<ResolvedAddress> {
  const name = bare(host);
  const family = isIP(name);
  let addresses: ResolvedAddress[];
  if (family) addresses = [{ address: name, family }];
  else {
    try {
      addresses = await opts.resolve(name);
    } catch {
      throw new UrlRefused(`The host ${name} could not be found.`);
    }
  }
  const first = addresses[0];
  if (!first) throw new UrlRefused(`The host ${name} could not be found.`);
  if (!opts.allowPrivateHosts && addresses.some((a) => isInternal(a.address))) throw new UrlRefused(PRIVATE_TEXT);
  return first;
}

/** Posts body to url with headers; never throws (every failure is a PostResult with an error). */
export async function postJson(
  urlText: string,
  body: string,
  headers: Record<string, string>,
  opts: OutboundOptions,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): PostResult => ({ status: null, durationMs: elapsed(), response: null, error });
  if (Buffer.byteLength(body) > BODY_MAX) return failed(`The body is larger than ${BODY_MAX / 1024} KB.`);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
  try {
    const url = checkUrlShape(urlText, opts.allowPrivateHosts);
    const target = await checkedAddress(url.hostname, opts);
    if (abort.signal.aborted) return failed(`No answer within ${opts.timeoutMs / 1000} s.`);
    // The connection goes to the address checked above, whatever the name resolves to by now.
    const pinned: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) callback(null, [target]);
      else callback(null, target.address, target.family);
    };
    const answer = await exchange(url, body, headers, pinned, abort.signal);
    return { ...answer, durationMs: elapsed(), error: null };
  } catch (err) {
    if (err instanceof UrlRefused) return failed(err.message);
    if (abort.signal.aborted) return failed(`No answer within ${opts.timeoutMs / 1000} s.`);
    const code = (err as NodeJS.ErrnoException).code;
    return failed(`Could not connect${code ? ` (${code})` : ""}.`);
  } finally {
    clearTimeout(timer);
  }
}

/** One request and the start of its answer; redirects are answers like any other (never followed). */
function exchange(
  url: URL,
  body: string,
  headers: Record<string, string>,
  lookup: LookupFunction,
  signal: AbortSignal,
): Promise<{ status: number; response: string }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
        lookup,
        signal,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          resolve({
            status: res.statusCode ?? 0,
            // As text the database can keep (no NUL), whatever the receiver sent.
            response: Buffer.concat(chunks).subarray(0, RESPONSE_MAX).toString("utf8").replaceAll("\u0000", ""),
          });
        };
        res.on("data", (chunk: Buffer) => {
          if (size >= RESPONSE_MAX) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_MAX) {
            done();
            res.destroy();
          }
        });
        res.on("end", done);
        res.on("error", (err) => (size >= RESPONSE_MAX ? done() : reject(err)));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
