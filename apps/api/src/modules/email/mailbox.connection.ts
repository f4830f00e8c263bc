import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { ImapFlow } from "imapflow";
import { AppError } from "../../platform/errors.ts";

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

/** Addresses a tenant's admin must not make Cove connect to: the server's own machine and network. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 127],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv6");
}

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail and "::" read); null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] && dotted[2]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[2].split(".").map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (p: string) => (p === "" ? [] : p.split(":").map((g) => Number.parseInt(g, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, in every form a packet to it can reach an IPv4 host by: IPv4-compatible
 * (::a.b.c.d), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4
 * (2002:aabb:ccdd::) and Teredo (2001:0:server:...:client, the client's bits inverted).
 */
export function embeddedIpv4(groups: number[]): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0) return [quad(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [quad(g6, g7)];
  if (g0 === 0x2002) return [quad(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [quad(g2, g3), quad(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** True for an address of the server's own machine or network, however it is written (v4 inside v6 among them). */
export function isInternal(address: string): boolean {
  if (isIP(address) === 4) return INTERNAL.check(address, "ipv4");
  // A scoped address (fe80::1%eth0) names an interface of this machine.
  if (address.includes("%")) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const [, , , , g4 = 0, g5 = 0] = groups;
  // In ::/64 only the mapped, translated and compatible forms exist; anything else there is refused.
  if (
    groups.slice(0, 4).every((g) => g === 0) &&
    !((g4 === 0 && g5 === 0) || (g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0))
  ) {
    return true;
  }
  if (embeddedIpv4(groups).some((v4) => INTERNAL.check(v4, "ipv4"))) return true;
  return INTERNAL.check(groups.map((g) => g.toString(16)).join(":"), "ipv6");
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
