import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isInternal } from "../../src/modules/email/mailbox.connection.ts";
import { bearer, createTestApp, registerOrg, type TestApp } from "../helpers.ts";

/**
 * The mailbox import connects only to mail servers on the internet: every spelling of a loopback or private address
 * (IPv4 inside IPv6 among them) is refused before any connection, with the one answer an unreachable host gets.
 */

/** 127.0.0.1 and 10.0.0.1 written inside IPv6, each way a packet to it can reach the IPv4 host. */
const LOOPBACK_IN_V6 = [
  "::7f00:1", // IPv4-compatible
  "::127.0.0.1",
  "::ffff:127.0.0.1", // IPv4-mapped
  "::ffff:7f00:1",
  "::ffff:0:7f00:1", // IPv4-translated
  "::ffff:0:127.0.0.1",
  "64:ff9b::7f00:1", // NAT64
  "64:ff9b::127.0.0.1",
  "2002:7f00:1::1", // 6to4
  "2002:a00:1::", // 6to4 of 10.0.0.1
  "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1 (its bits inverted)
  "2001:0:a00:1::1", // Teredo, server 10.0.0.1
  "0:0:0:0:0:ffff:7f00:1",
  "::1",
  "::",
  "fe80::1",
  "fd12:3456::1",
  "64:ff9b:1::1",
];
const PUBLIC = ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"];

let t: TestApp;
let listener: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  t = await createTestApp();
  listener = createServer((socket) => {
    connections++;
    socket.end("* OK IMAP4rev1 ready\r\n");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  port = typeof address === "object" && address ? address.port : 0;
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await t.close();
});

const expected = (host: string) =>
  `No mail server could be reached at ${host}:${port}: check the server name and the port (Cove connects only to mail servers on the internet).`;

describe("mailbox hosts", () => {
  it("reads IPv4 inside IPv6 in every form as the IPv4 address it is", () => {
    for (const address of LOOPBACK_IN_V6) expect(isInternal(address), address).toBe(true);
    for (const address of ["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "100.64.0.1"]) {
      expect(isInternal(address), address).toBe(true);
    }
    for (const address of PUBLIC) expect(isInternal(address), address).toBe(false);
  });

  it("refuses each spelling (and a name resolving to one) before connecting, with the unreachable host's answer", async () => {
    const { token } = await registerOrg(t.app);
    const hosts = [...LOOPBACK_IN_V6.map((a) => `[${a}]`), "127.0.0.1", "localhost", "127.1", "2130706433"];
    for (const host of hosts) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/email/mailboxes",
        headers: bearer(token),
        payload: { host, port, tls: false, user: "ada", password: "secret" },
      });
      expect(res.statusCode, `${host}: ${res.body}`).toBe(422);
      expect(res.json()).toMatchObject({ code: "MAILBOX_CONNECTION_FAILED", error: expected(host) });
    }
    expect(connections).toBe(0);
    // A name that does not resolve answers the same words: the answers do not tell internal names from missing ones.
    const missing = await t.app.inject({
      method: "POST",
      url: "/api/email/mailboxes",
      headers: bearer(token),
      payload: { host: "no-such-host.invalid", port, tls: false, user: "ada", password: "secret" },
    });
    expect(missing.json()).toMatchObject({ error: expected("no-such-host.invalid") });
  });
});
