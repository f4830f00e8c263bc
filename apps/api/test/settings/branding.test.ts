import type { PortalInfoAnswer, PortalMeAnswer } from "@cove/contract/portal.ts";
import type { GeneralSettings } from "@cove/contract/settings.ts";
import type { Ticket } from "@cove/contract/tickets.ts";
import { eq } from "drizzle-orm";
import { JSDOM } from "jsdom";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { organizationSettings } from "../../src/db/schema/settings.ts";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { client, registerOrg, testAppWithMail, unique } from "../helpers.ts";
import type { ReceivedMail } from "../smtp.ts";
import { askForLink, portalSignIn } from "../support/portal.ts";

/*
 * Issue 29, item 6: the organization's saved logo and colour lead what its customers see: the portal (before and after
 * sign-in), the chat widget's look, and every email they get (sign-in links, replies, acknowledgements, surveys).
 */

const DOMAIN = "in.cove.test";
const { t, smtp } = testAppWithMail({ email: { inboundDomain: DOMAIN, retryLimit: 1, retryDelaySeconds: 1 } });

const call = client(() => t.app, { newAddressEachCall: true });

/** A 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const LOGO = `data:image/png;base64,${PNG.toString("base64")}`;

async function newOrg() {
  const org = await registerOrg(t.app);
  return { token: org.token, id: org.user.organizationId, slug: org.user.organizationSlug };
}
type Org = Awaited<ReturnType<typeof newOrg>>;

async function brand(org: Org, body: { brand_color?: string; logo?: string | null; name?: string }) {
  const res = await call(org.token, "PUT", "/api/settings/general", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as GeneralSettings;
}

const portalInfo = async (slug: string) => {
  const res = await call(null, "GET", `/api/public/${slug}/portal`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PortalInfoAnswer).organization;
};

const portalMe = async (token: string) => {
  const res = await call(token, "GET", "/api/portal/me");
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PortalMeAnswer).organization;
};

/** What a mail client shows of a message's HTML part: its brand header, logo, name and button. */
async function htmlOf(mail: ReceivedMail | undefined) {
  if (!mail) throw new Error("no mail");
  const parsed = await simpleParser(mail.raw);
  const html = typeof parsed.html === "string" ? parsed.html : "";
  expect(html, "the message has an HTML part").not.toBe("");
  const doc = new JSDOM(html).window.document;
  const header = doc.querySelector<HTMLElement>('[data-brand="header"]');
  if (!header) throw new Error(`no brand header in:\n${html}`);
  const button = [...doc.querySelectorAll<HTMLAnchorElement>("a")].find((a) => a.style.backgroundColor !== "");
  return {
    html,
    text: parsed.text ?? "",
    background: header.style.backgroundColor,
    ink: header.style.color,
    name: header.textContent?.trim(),
    logo: header.querySelector("img")?.getAttribute("src") ?? null,
    logoAlt: header.querySelector("img")?.getAttribute("alt") ?? null,
    button: button ? { background: button.style.backgroundColor, color: button.style.color } : null,
  };
}

async function staffTicket(org: Org, email: string) {
  const res = await call(org.token, "POST", "/api/tickets", {
    subject: "The lamp flickers",
    description: "Since Monday.",
    requester_name: "Ana Ruiz",
    requester_email: email,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().ticket as Ticket;
}

describe("the customer portal shows the organization's branding", () => {
  it("shows the saved logo and colour before and after sign-in, follows a change, and each portal its own", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const saved = await brand(org, { brand_color: "#0F766E", logo: LOGO });
    const logoUrl = saved.logo_url;
    expect(logoUrl).toMatch(new RegExp(`^/api/public/${org.slug}/logo\\?v=[0-9a-f]{12}$`));

    // Before sign-in: the sign-in page's answer.
    expect((await portalInfo(org.slug)).branding).toEqual({ logo_url: logoUrl, color: "#0f766e" });
    // Signing in with the emailed link, and the signed-in customer's own answer.
    const email = `ana-${unique()}@example.com`;
    const session = await portalSignIn(t, smtp, org.slug, email);
    expect(session.organization.branding).toEqual({ logo_url: logoUrl, color: "#0f766e" });
    expect((await portalMe(session.token)).branding).toEqual({ logo_url: logoUrl, color: "#0f766e" });

    // A change shows on the customer's next load, and the PUT answer carries it too.
    await brand(org, { brand_color: "#fde047", logo: null });
    expect((await portalMe(session.token)).branding).toEqual({ logo_url: null, color: "#fde047" });
    const put = await call(session.token, "PUT", "/api/portal/me", { name: "Ana Ruiz", company: "" });
    expect(put.statusCode, put.body).toBe(200);
    expect((put.json() as PortalMeAnswer).organization.branding).toEqual({ logo_url: null, color: "#fde047" });

    // Another organization's portal, and its customer, see its own (the default), never this one's.
    expect((await portalInfo(other.slug)).branding).toEqual({ logo_url: null, color: "#4f46e5" });
    const theirs = await portalSignIn(t, smtp, other.slug, `bo-${unique()}@example.com`);
    expect((await portalMe(theirs.token)).branding).toEqual({ logo_url: null, color: "#4f46e5" });
  });

  it("serves the logo to other origins (the widget on the shop's site, webmail), as the image it is", async () => {
    const org = await newOrg();
    const { logo_url } = await brand(org, { logo: LOGO });
    const res = await call(null, "GET", logo_url ?? "");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.rawPayload.equals(PNG)).toBe(true);
  });

  it("never lets a stored value that is not a plain #rrggbb into an answer", async () => {
    const org = await newOrg();
    await brand(org, { brand_color: "#123456" });
    // Written past the API's check (as an old row or a hand-edited database might hold it).
    await t.database.db
      .update(organizationSettings)
      .set({ brandColor: "red;background:url(https://evil.example/x)" })
      .where(eq(organizationSettings.organizationId, org.id));
    expect((await portalInfo(org.slug)).branding.color).toBe("#4f46e5");
    const look = await call(null, "GET", `/api/public/${org.slug}/chat/widget`);
    expect(look.json().brand_color).toBe("#4f46e5");
    const branding = await call(null, "GET", `/api/public/${org.slug}/branding`);
    expect(branding.json().brand_color).toBe("#4f46e5");
    const email = `cy-${unique()}@example.com`;
    expect((await askForLink(t, org.slug, email)).statusCode).toBe(200);
    const [mail] = await smtp.waitFor(1, (m) => m.to.includes(email));
    const shown = await htmlOf(mail);
    expect(shown.background).toBe("rgb(79, 70, 229)");
    expect(shown.html).not.toContain("evil.example");
  });
});

describe("the chat widget's look", () => {
  it("answers the saved name, colour and logo, to any origin, cacheable for five minutes", async () => {
    const org = await newOrg();
    const { logo_url } = await brand(org, { name: "Lamp Shop", brand_color: "#0F766E", logo: LOGO });
    const look = await call(null, "GET", `/api/public/${org.slug}/chat/widget`);
    expect(look.statusCode).toBe(200);
    expect(look.json()).toEqual({ name: "Lamp Shop", brand_color: "#0f766e", logo_url });
    expect(look.headers["access-control-allow-origin"]).toBe("*");
    expect(look.headers["cache-control"]).toBe("public, max-age=300");
    expect((await call(null, "GET", "/api/public/no-such-shop/chat/widget")).statusCode).toBe(404);
  });
});

describe("customer emails carry the organization's logo and colour", () => {
  it("in sign-in links, replies, acknowledgements and satisfaction surveys", async () => {
    const org = await newOrg();
    const { logo_url } = await brand(org, { name: "Lamp Shop", brand_color: "#0F766E", logo: LOGO });
    const logo = `http://cove.test${logo_url}`;
    const expected = { background: "rgb(15, 118, 110)", ink: "rgb(255, 255, 255)", name: "Lamp Shop", logo };

    // The portal's sign-in link.
    const a = `ana-${unique()}@example.com`;
    expect((await askForLink(t, org.slug, a)).statusCode).toBe(200);
    const link = await htmlOf((await smtp.waitFor(1, (m) => m.to.includes(a)))[0]);
    expect(link).toMatchObject(expected);
    expect(link.button).toEqual({ background: "rgb(15, 118, 110)", color: "rgb(255, 255, 255)" });
    expect(link.html).toContain(`/portal/${org.slug}?token=`);

    // A reply to a ticket: the HTML part says what the text part says, under the brand, with the signature.
    await call(org.token, "PUT", "/api/settings/email", {
      sender_name: "",
      reply_to: null,
      signature: "The lamp people",
    });
    const b = `bo-${unique()}@example.com`;
    const ticket = await staffTicket(org, b);
    const replied = await call(org.token, "POST", `/api/tickets/${ticket.id}/comments`, {
      body: "Have you tried another bulb?\nA warm white one.\n\nTell us how it goes.",
      is_public: true,
    });
    expect(replied.statusCode).toBe(201);
    const reply = await htmlOf((await smtp.waitFor(1, (m) => m.to.includes(b) && m.decoded.includes("bulb")))[0]);
    expect(reply).toMatchObject(expected);
    expect(reply.text).toContain("Have you tried another bulb?");
    const body = new JSDOM(reply.html).window.document.body.textContent ?? "";
    for (const words of [
      "Have you tried another bulb?",
      "A warm white one.",
      "Tell us how it goes.",
      "The lamp people",
    ]) {
      expect(body).toContain(words);
    }

    // The acknowledgement of a ticket opened by email.
    const c = `cy-${unique()}@example.com`;
    const raw = Buffer.from(
      [
        `From: Cy Moss <${c}>`,
        `To: ${org.slug}@${DOMAIN}`,
        "Subject: My lamp is dark",
        `Message-ID: <${unique()}@client.example>`,
        "Date: Wed, 25 Nov 2026 02:00:00 +0000",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "It does not light at all.",
        "",
      ].join("\r\n"),
    );
    expect((await receiveMail(t.database.db, org.id, { raw, envelopeFrom: c, tag: null })).result).toBe("ticket");
    const ack = await htmlOf((await smtp.waitFor(1, (m) => m.to.includes(c)))[0]);
    expect(ack).toMatchObject(expected);
    expect(ack.html).toContain("We received your request");

    // The satisfaction survey, once the reply's ticket is solved.
    expect((await call(org.token, "PUT", `/api/tickets/${ticket.id}`, { status: "solved" })).statusCode).toBe(200);
    const survey = await htmlOf(
      (await smtp.waitFor(1, (m) => m.to.includes(b) && m.decoded.includes("/satisfaction?token=")))[0],
    );
    expect(survey).toMatchObject(expected);
    expect(survey.button).toEqual({ background: "rgb(15, 118, 110)", color: "rgb(255, 255, 255)" });

    // The logo each of them shows is the organization's, served as an image.
    const served = await call(null, "GET", new URL(logo).pathname + new URL(logo).search);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it("puts black text on a light colour, escapes the name, and shows no logo when there is none", async () => {
    const org = await newOrg();
    await brand(org, { name: 'Bright <b>Co</b> & "Sons"', brand_color: "#FDE047" });
    const email = `di-${unique()}@example.com`;
    expect((await askForLink(t, org.slug, email)).statusCode).toBe(200);
    const mail = await htmlOf((await smtp.waitFor(1, (m) => m.to.includes(email)))[0]);
    expect(mail).toMatchObject({
      background: "rgb(253, 224, 71)",
      ink: "rgb(0, 0, 0)",
      name: 'Bright <b>Co</b> & "Sons"',
      logo: null,
    });
    expect(mail.button).toEqual({ background: "rgb(253, 224, 71)", color: "rgb(0, 0, 0)" });
    expect(mail.html).not.toContain("<b>Co</b>");
  });

  it("leaves Cove's own mail to staff in Cove's colours", async () => {
    const org = await newOrg();
    await brand(org, { brand_color: "#0F766E", logo: LOGO });
    const email = `eve-${unique()}@example.com`;
    const invited = await call(org.token, "POST", "/api/users/invite", {
      email,
      firstName: "Eve",
      lastName: "Stone",
      role: "agent",
    });
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    const mail = await htmlOf((await smtp.waitFor(1, (m) => m.to.includes(email)))[0]);
    expect(mail).toMatchObject({ background: "rgb(79, 70, 229)", name: "Cove", logo: null });
  });
});
