import { generateKeyPairSync } from "node:crypto";
import type { Ticket } from "@cove/contract/tickets.ts";
import { dkimSign } from "mailauth";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../../src/modules/email/email.receiver.ts";
import { checkSender } from "../../src/modules/email/email.sender-check.ts";
import { addMember, client, createTestApp, createTicket, registerOrg, type TestApp, unique } from "../helpers.ts";

/**
 * SPF, DKIM and DMARC as the receiver checks them, against DNS records the test publishes through the checker's
 * resolver (no network): a DKIM-signed domain, a domain whose SPF allows only another address with DMARC p=quarantine,
 * one with DMARC p=reject, and domains that publish nothing.
 */
const DOMAIN = "in.cove.test";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const PUBLIC_B64 = publicKey.export({ type: "spki", format: "der" }).toString("base64");

const RECORDS: Record<string, string[]> = {
  "sel._domainkey.signed.test": [`v=DKIM1; k=rsa; p=${PUBLIC_B64}`],
  "_dmarc.signed.test": ["v=DMARC1; p=quarantine"],
  "signed.test": ["v=spf1 ip4:192.0.2.10 -all"],
  "_dmarc.corp.test": ["v=DMARC1; p=quarantine"],
  "corp.test": ["v=spf1 ip4:192.0.2.10 -all"],
  "_dmarc.strict.test": ["v=DMARC1; p=reject"],
  "strict.test": ["v=spf1 ip4:192.0.2.10 -all"],
};

async function resolver(name: string, type: string): Promise<string[][]> {
  const found = type === "TXT" ? RECORDS[name.toLowerCase()] : undefined;
  if (!found) throw Object.assign(new Error(`${name} ${type}: not found`), { code: "ENOTFOUND" });
  return found.map((r) => [r]);
}

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({ email: { inboundDomain: DOMAIN } });
  receiver = await startReceiver({
    db: t.database.db,
    domain: DOMAIN,
    port: 0,
    host: "127.0.0.1",
    log: t.app.log,
    senderCheck: { resolver, mta: DOMAIN },
  });
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const call = client(() => t.app);

function message(from: string, to: string, extra: Record<string, string> = {}) {
  const headers = {
    From: from,
    To: to,
    Subject: extra.Subject ?? "Where is my order?",
    "Message-ID": `<${unique()}@sender.test>`,
    Date: new Date().toUTCString(),
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=utf-8",
    ...extra,
  };
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n");
  return Buffer.from(`${head}\r\n\r\n${extra.body ?? "Hello, any news on my order?"}\r\n`);
}

/**
 * Signs as a sending server would. The time is given: without it mailauth reads the clock once for the header it signs
 * and again for the header it writes, and when the two fall either side of a half second the t= tags differ and the
 * signature is (rightly) bad, about one run in 300.
 */
async function signed(raw: Buffer, domain: string) {
  const { signatures } = await dkimSign(raw, {
    canonicalization: "relaxed/relaxed",
    signTime: new Date(),
    signatureData: [{ signingDomain: domain, selector: "sel", privateKey: PRIVATE_PEM }],
  } as Parameters<typeof dkimSign>[1]);
  return Buffer.concat([Buffer.from(signatures), raw]);
}

async function send(raw: Buffer, envelopeFrom: string, to: string) {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: receiver.port, secure: false });
  try {
    return await transport.sendMail({ envelope: { from: envelopeFrom, to: [to] }, raw });
  } finally {
    transport.close();
  }
}

async function ticketsOf(token: string): Promise<Ticket[]> {
  const res = await call(token, "GET", "/api/tickets?limit=100");
  expect(res.statusCode, res.body).toBe(200);
  return res.json().tickets;
}

describe("checking who really sent a message", () => {
  it("finds a valid DKIM signature verified, a forged address forged, and says unknown where nothing is published", async () => {
    const raw = message("Ana <ana@signed.test>", `shop@${DOMAIN}`);
    const session = { ip: "127.0.0.1", helo: "localhost", envelopeFrom: "ana@signed.test" };
    expect(await checkSender(await signed(raw, "signed.test"), session, { resolver })).toMatchObject({
      verdict: "verified",
    });
    expect(await checkSender(raw, session, { resolver })).toMatchObject({ verdict: "forged", reject: false });
    const strict = message("Boss <boss@strict.test>", `shop@${DOMAIN}`);
    expect(await checkSender(strict, { ...session, envelopeFrom: "boss@strict.test" }, { resolver })).toMatchObject({
      verdict: "forged",
      reject: true,
    });
    const plain = message("Kim <kim@nothing.test>", `shop@${DOMAIN}`);
    expect(await checkSender(plain, { ...session, envelopeFrom: "kim@nothing.test" }, { resolver })).toMatchObject({
      verdict: "unknown",
    });
    // A message that is not mail at all is unknown, never an error.
    expect((await checkSender(Buffer.from("\u0000\u0001"), session, { resolver })).verdict).toBe("unknown");
  });

  it("never lets a forged member's address answer a ticket as that member: a new ticket, marked unverified", async () => {
    const org = await registerOrg(t.app);
    const slug = org.user.organizationSlug;
    const member = await addMember(t.database, org.user.organizationId, { firstName: "Mia", lastName: "Chen" });
    // The member's address is at corp.test, whose SPF allows only 192.0.2.10: mail from 127.0.0.1 is forged.
    await t.database.executeSql("update users set email = $1 where id = $2", [`mia-${unique()}@corp.test`, member.id]);
    const { rows } = await t.database.executeSql("select email from users where id = $1", [member.id]);
    const memberEmail = String(rows[0]?.email);
    const ticket = await createTicket(t.app, org, { subject: "Refund please", description: "Broken lamp." });

    await send(
      message(`Mia Chen <${memberEmail}>`, `${slug}@${DOMAIN}`, {
        Subject: `Re: [#${ticket.ticket_number}] Refund please`,
      }),
      memberEmail,
      `${slug}@${DOMAIN}`,
    );
    const detail = await call(org, "GET", `/api/tickets/${ticket.id}`);
    expect(detail.json().ticket.comments).toHaveLength(0);
    const unverified = (await ticketsOf(org.token)).find((x) => x.id !== ticket.id);
    expect(unverified?.tags).toEqual(["unverified-sender"]);
    expect(unverified?.description).toMatch(
      new RegExp(
        `^\\[Cove could not verify that this email came from ${memberEmail.replace(".", "\\.")}: DMARC fail for corp\\.test`,
      ),
    );
  });

  it("files a DKIM-signed reply from the requester on their ticket as before", async () => {
    const org = await registerOrg(t.app);
    const slug = org.user.organizationSlug;
    const ticket = await createTicket(t.app, org, {
      subject: "Lamp arrived broken",
      description: "Pieces.",
      requester_email: "ana@signed.test",
    });
    const raw = message("Ana Ruiz <ana@signed.test>", `${slug}@${DOMAIN}`, {
      Subject: `Re: [#${ticket.ticket_number}] Lamp arrived broken`,
      body: "Here is a photo of the box.",
    });
    await send(await signed(raw, "signed.test"), "ana@signed.test", `${slug}@${DOMAIN}`);
    const detail = await call(org, "GET", `/api/tickets/${ticket.id}`);
    const comments = detail.json().ticket.comments as { body: string }[];
    expect(comments.map((c) => c.body)).toEqual(["Here is a photo of the box."]);
    expect(await ticketsOf(org.token)).toHaveLength(1);
  });

  it("refuses at SMTP a message whose domain asks for failing mail to be rejected, and files nothing", async () => {
    const org = await registerOrg(t.app);
    const slug = org.user.organizationSlug;
    await expect(
      send(message("Boss <boss@strict.test>", `${slug}@${DOMAIN}`), "boss@strict.test", `${slug}@${DOMAIN}`),
    ).rejects.toMatchObject({ responseCode: 550 });
    expect(await ticketsOf(org.token)).toEqual([]);
  });
});
