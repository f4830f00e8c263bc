import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";

/**
 * A real IMAP server for the import's tests and bench: Debian's Dovecot (dovecot-imapd), started with a configuration
 * of its own in a temporary directory (its own port on 127.0.0.1, plaintext sign-in allowed there, one user in a
 * passwd file, a maildir in the same directory), and stopped with everything it wrote.
 */
export interface Dovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  /** The user's maildir (Maildir/ in its home). */
  maildir: string;
  /** A signed-in client, for filling folders with APPEND. */
  client(): Promise<ImapFlow>;
  /** Writes messages straight into a folder's maildir (fast, for large mailboxes); Dovecot indexes them when read. */
  writeMaildir(messages: Iterable<string>, folder?: string): number;
  stop(): Promise<void>;
}

export const DOVECOT = "/usr/sbin/dovecot";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`dovecot exited at start:\n${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`dovecot did not listen on ${port}:\n${log()}`);
}

const idOf = (name: string, flag: "-u" | "-g") => Number(execFileSync("id", [flag, name]).toString().trim());

export async function startDovecot(opts: { password?: string } = {}): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), "cove-dovecot-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const user = "support";
  const password = opts.password ?? "correct horse battery staple";
  const home = path.join(dir, "home", user);
  const maildir = path.join(home, "Maildir");
  for (const sub of ["run", "state", "home", home, maildir]) mkdirSync(path.resolve(dir, sub), { recursive: true });
  // As root, Dovecot runs its processes as unprivileged users (its own, and "mail" for the mail itself); as anyone
  // else it runs everything as that user.
  const root = process.getuid?.() === 0;
  const me = userInfo().username;
  const mailUid = root ? idOf("mail", "-u") : (process.getuid?.() ?? 1000);
  const mailGid = root ? idOf("mail", "-g") : (process.getgid?.() ?? 1000);
  if (root) chownSync(path.join(dir, "home"), mailUid, mailGid);
  if (root) for (const d of [home, maildir]) chownSync(d, mailUid, mailGid);
  writeFileSync(path.join(dir, "passwd"), `${user}:{PLAIN}${password}::::::\n`, { mode: 0o644 });
  const config = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
login_trusted_networks = 127.0.0.0/8
default_internal_user = ${root ? "dovecot" : me}
default_internal_group = ${root ? "dovecot" : me}
default_login_user = ${root ? "dovenull" : me}
first_valid_uid = 1
first_valid_gid = 0
mail_location = maildir:~/Maildir
mailbox_list_index = no
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUid} gid=${mailGid} home=${dir}/home/%u
}
# No growing wait after failed sign-ins (the tests fail many on purpose).
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
  writeFileSync(path.join(dir, "dovecot.conf"), config);
  const child = spawn(DOVECOT, ["-F", "-c", path.join(dir, "dovecot.conf")], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    output += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    output += d;
  });
  await waitForPort(port, child, () => output);

  let written = 0;
  return {
    host: "127.0.0.1",
    port,
    user,
    password,
    maildir,
    async client() {
      const client = new ImapFlow({
        host: "127.0.0.1",
        port,
        secure: false,
        auth: { user, pass: password },
        logger: false,
      });
      client.on("error", () => {});
      await client.connect();
      return client;
    },
    writeMaildir(messages, folder = "INBOX") {
      const base = folder === "INBOX" ? maildir : path.join(maildir, `.${folder}`);
      for (const sub of ["cur", "new", "tmp"]) {
        mkdirSync(path.join(base, sub), { recursive: true });
        if (root) chownSync(path.join(base, sub), mailUid, mailGid);
      }
      if (root) chownSync(base, mailUid, mailGid);
      let n = 0;
      for (const message of messages) {
        written++;
        n++;
        // Maildir names: unique per file; ordered by name, so UIDs follow the order written.
        const file = path.join(base, "new", `${1_700_000_000 + written}.M${written}P${process.pid}.cove`);
        writeFileSync(file, message);
        if (root) chownSync(file, mailUid, mailGid);
      }
      return n;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One plain customer email; CRLF as on the wire. */
export function customerMail(
  n: number,
  opts: { messageId?: string | null; from?: string; subject?: string; headers?: string[]; body?: string } = {},
): string {
  const messageId = opts.messageId === undefined ? `<import-${n}@customers.example>` : opts.messageId;
  const lines = [
    `From: Customer ${n % 97} <${opts.from ?? `customer-${n % 97}@customers.example`}>`,
    "To: Support <support@acme.example>",
    `Subject: ${opts.subject ?? `Question number ${n}`}`,
    `Date: ${new Date(Date.UTC(2025, 0, 1) + n * 60_000).toUTCString()}`,
    ...(messageId ? [`Message-ID: ${messageId}`] : []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    ...(opts.headers ?? []),
    "",
    opts.body ?? `Hello, this is message ${n}. My order has not arrived yet; could you look into it?`,
    "",
  ];
  return lines.join("\r\n");
}

/** Appends messages to a folder over IMAP (creating the folder), in order. */
export async function appendAll(dovecot: Dovecot, messages: Iterable<string>, folder = "INBOX"): Promise<number> {
  const client = await dovecot.client();
  try {
    if (folder !== "INBOX") await client.mailboxCreate(folder).catch(() => {});
    let n = 0;
    for (const message of messages) {
      await client.append(folder, message);
      n++;
    }
    return n;
  } finally {
    await client.logout().catch(() => client.close());
  }
}
