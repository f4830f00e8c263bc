import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { ImapFlow } from "imapflow";
import { isInternal } from "../../platform/addresses.ts";
import { AppError } from "../../platform/errors.ts";

export { embeddedIpv4, ipv6Groups, isInternal } from "../../platform/addresses.ts";

/** Where a mailbox is and how to sign in to it. */
export interface MailboxAccess {
  host: string;
  port: number;
  tls: boolean;
  user: string;
  password: string;
  folder: string;
}

export interface ConnectOptions {
  /** Loopback and private addresses are allowed (IMAP_ALLOW_PRIVATE_HOSTS; tests and a local Dovecot). */
  allowPrivateHosts: boolean;
}

/**
 * One answer for every host Cove will not or cannot reach (a private address, a name that does not resolve, nothing
 * listening, no answer): different texts would let an admin map which internal names and ports exist.
 */
export const unreachable = (host: string, port: number, allowPrivateHosts = false) =>
  refused(
    `No mail server could be reached at ${host}:${port}: check the server name and the port${allowPrivateHosts ? "" : " (Cove connects only to mail servers on the internet)"}.`,
  );

const refused = (message: string, path = "host") =>
  new AppError("MAILBOX_CONNECTION_FAILED", message, [{ path, message }]);

/**
 * The address to connect to: the host's first address, resolved once here and used as is, so a name that resolves
 * to a public address when checked cannot resolve to an internal one when connecting.
 */
export async function resolveHost(host: string, port: number, opts: ConnectOptions): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (isIP(bare)) addresses = [bare];
  else {
    try {
      addresses = (await lookup(bare, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      throw unreachable(host, port, opts.allowPrivateHosts);
    }
  }
  const first = addresses[0];
  if (!first) throw unreachable(host, port, opts.allowPrivateHosts);
  if (!opts.allowPrivateHosts && addresses.some(isInternal)) throw unreachable(host, port);
  return first;
}

/** What went wrong, in words an admin can act on. */
export function connectionError(
  err: unknown,
  access: Pick<MailboxAccess, "host" | "port" | "tls" | "folder">,
  allowPrivateHosts = false,
) {
  if (err instanceof AppError) return err;
  const e = (err ?? {}) as {
    code?: string;
    authenticationFailed?: boolean;
    message?: string;
    responseText?: string;
    serverResponseCode?: string;
    mailboxMissing?: boolean;
  };
  const where = `${access.host}:${access.port}`;
  const code = e.code ?? "";
  const message = e.message ?? "";
  if (e.authenticationFailed || code === "AUTHENTICATIONFAILED" || e.serverResponseCode === "AUTHENTICATIONFAILED") {
    return refused("The mail server refused the user name or password.", "password");
  }
  if (
    [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "EADDRNOTAVAIL",
      "ETIMEDOUT",
      "ETIMEOUT",
      "CONNECT_TIMEOUT",
      "GREETING_TIMEOUT",
      "ECONNRESET",
      "EPIPE",
      "NoConnection",
    ].includes(code) ||
    /timeout/i.test(message)
  ) {
    return unreachable(access.host, access.port, allowPrivateHosts);
  }
  if (
    /^ERR_(SSL|TLS)|CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET)/.test(code) ||
    /certificate|ssl routines/i.test(message)
  ) {
    const why = /WRONG_VERSION|wrong version/i.test(code + message)
      ? "the server does not speak TLS on this port"
      : /CERT|SELF_SIGNED|UNABLE_TO|certificate/i.test(code + message)
        ? `its certificate is not valid for ${access.host} (${code || "certificate"})`
        : `the secure connection failed (${code || "TLS"})`;
    const tip = access.tls
      ? "Check the port (993 is usually TLS, 143 is not) or turn TLS off."
      : "Check the port (143 is usually plain, 993 is TLS) or turn TLS on.";
    return refused(`A secure (TLS) connection to ${where} could not be made: ${why}. ${tip}`, "tls");
  }
  if (
    e.mailboxMissing ||
    e.serverResponseCode === "NONEXISTENT" ||
    /doesn't exist|does not exist|nonexistent|unknown mailbox/i.test(`${message} ${e.responseText ?? ""}`)
  ) {
    return refused(`The folder ${access.folder} does not exist in this mailbox.`, "folder");
  }
  const said = (e.responseText ?? message).slice(0, 200);
  return refused(`The mail server refused the connection${said ? `: ${said}` : "."}`);
}

/** A client signed in to the mailbox with its folder open read-only (nothing is marked read or moved). */
export async function openMailbox(access: MailboxAccess, opts: ConnectOptions) {
  const address = await resolveHost(access.host, access.port, opts);
  const bareHost = access.host.replace(/^\[|\]$/g, "");
  const client = new ImapFlow({
    host: address,
    port: access.port,
    secure: access.tls,
    // The certificate is checked against the name the admin typed, not the address connected to.
    servername: isIP(bareHost) ? undefined : bareHost,
    auth: { user: access.user, pass: access.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
  });
  // A connection that drops later is noticed by the command that needs it; this keeps the event from being unhandled.
  client.on("error", () => {});
  try {
    await client.connect();
    const folder = await client.mailboxOpen(access.folder, { readOnly: true });
    return { client, folder };
  } catch (err) {
    client.close();
    throw connectionError(err, access, opts.allowPrivateHosts);
  }
}

/** Connects, signs in and opens the folder once: what saving a mailbox checks first. Answers how many messages it has. */
export async function checkMailbox(access: MailboxAccess, opts: ConnectOptions): Promise<number> {
  const { client, folder } = await openMailbox(access, opts);
  try {
    return folder.exists;
  } finally {
    await client.logout().catch(() => client.close());
  }
}
