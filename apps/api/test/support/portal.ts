import type { PortalSessionAnswer } from "@cove/contract/portal.ts";
import { expect } from "vitest";
import type { TestApp } from "../helpers.ts";
import { linkToken, type TestSmtp } from "../smtp.ts";

let ipSeq = 0;
/** A fresh client address, so the per-address throttle of one test never reaches another (PostgreSQL is shared). */
export const newIp = () => {
  const n = (Date.now() % 200) * 100_000 + ipSeq++ + Math.floor(Math.random() * 1000) * 1000;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

export function askForLink(t: TestApp, slug: string, email: string, ip = newIp()) {
  return t.app.inject({
    method: "POST",
    url: `/api/public/${slug}/portal/sign-in-link`,
    payload: { email },
    remoteAddress: ip,
  });
}

/** The token of the newest sign-in link mailed to email for the portal at slug. */
export async function mailedLinkToken(smtp: TestSmtp, slug: string, email: string, count = 1): Promise<string> {
  const mails = await smtp.waitFor(count, (m) => m.to.includes(email) && m.decoded.includes(`/portal/${slug}?token=`));
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no sign-in link for ${email}`);
  return linkToken(mail, `/portal/${slug}`);
}

export function redeem(t: TestApp, slug: string, token: string) {
  return t.app.inject({ method: "POST", url: `/api/public/${slug}/portal/session`, payload: { token } });
}

/** A customer signed in to the portal at slug the way a person is: asks for a link, opens it from the mail. */
export async function portalSignIn(t: TestApp, smtp: TestSmtp, slug: string, email: string) {
  const before = smtp.inbox.filter((m) => m.to.includes(email)).length;
  const asked = await askForLink(t, slug, email);
  expect(asked.statusCode).toBe(200);
  const res = await redeem(t, slug, await mailedLinkToken(smtp, slug, email, before + 1));
  expect(res.statusCode).toBe(200);
  return res.json() as PortalSessionAnswer;
}
