import { createServer, type Server } from "node:net";

/**
 * A tiny IMAP server for tests that only need a mailbox to be connected: it greets, takes any LOGIN, lists and opens
 * an empty INBOX read-only, and answers OK to everything else (an import then finds no messages).
 */
export async function startFakeImap(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((socket) => {
    socket.setEncoding("utf8");
    socket.write("* OK [CAPABILITY IMAP4rev1] Fake IMAP ready\r\n");
    let buffer = "";
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\r\n"); end !== -1; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const [tag = "*", command = ""] = line.split(" ");
        const verb = command.toUpperCase();
        const out: string[] = [];
        if (verb === "CAPABILITY") out.push("* CAPABILITY IMAP4rev1");
        if (verb === "LIST") out.push('* LIST () "/" INBOX');
        if (verb === "EXAMINE" || verb === "SELECT") {
          out.push("* FLAGS (\\Seen)", "* 0 EXISTS", "* 0 RECENT", "* OK [UIDVALIDITY 7] ok", "* OK [UIDNEXT 1] ok");
          out.push(`${tag} OK [READ-ONLY] done`);
        } else if (verb === "SEARCH" || verb === "UID") {
          out.push("* SEARCH", `${tag} OK done`);
        } else if (verb === "LOGOUT") {
          out.push("* BYE bye", `${tag} OK done`);
        } else {
          out.push(`${tag} OK done`);
        }
        socket.write(`${out.join("\r\n")}\r\n`);
        if (verb === "LOGOUT") socket.end();
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.unref();
      }),
  };
}
