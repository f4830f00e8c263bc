import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone, as a mail client would show it. */
  decoded: string;
}

function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/**
 * A real SMTP server on a free local port that keeps what it receives. It can refuse the next messages with a
 * temporary error, or hold messages until released, to play a failing or slow mail server.
 */
export async function startSmtp() {
  const inbox: ReceivedMail[] = [];
  let refusals = 0;
  let gate: Promise<void> | null = null;
  let openGate = () => {};
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (refusals > 0) {
          refusals--;
          const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
          callback(error);
          return;
        }
        if (gate) await gate;
        const raw = Buffer.concat(chunks).toString("utf8");
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, decoded: decodeQuotedPrintable(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    inbox,
    url: `smtp://127.0.0.1:${port}`,
    /** The next n messages get "451 Try again later". */
    refuseNext(n: number) {
      refusals = n;
    },
    /** Messages are taken but not acknowledged until release() is called. */
    hold() {
      gate = new Promise<void>((resolve) => {
        openGate = resolve;
      });
    },
    release() {
      gate = null;
      openGate();
    },
    async waitFor(count: number, predicate: (m: ReceivedMail) => boolean = () => true, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (inbox.filter(predicate).length < count && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 25));
      }
      return inbox.filter(predicate);
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type TestSmtp = Awaited<ReturnType<typeof startSmtp>>;

/** The token of the first link to path in a message. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`http://cove\\.test${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.decoded);
  if (!match?.[1]) throw new Error(`no ${path} link in:\n${mail.decoded}`);
  return match[1];
}
