import { updateAiSettingsBody } from "@cove/contract/ai.ts";
import { registerBody } from "@cove/contract/auth.ts";
import { billingDetailsBody } from "@cove/contract/billing-account.ts";
import { articleListQuery, createArticleBody, createCategoryBody, helpSearchQuery } from "@cove/contract/kb.ts";
import { connectMailboxBody } from "@cove/contract/mailboxes.ts";
import { createPortalTicketBody, portalReplyBody, updatePortalMeBody } from "@cove/contract/portal.ts";
import { slugify } from "@cove/contract/slugs.ts";
import { createCommentBody, createTicketBody, ticketListQuery } from "@cove/contract/tickets.ts";
import { inviteUserBody } from "@cove/contract/users.ts";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { fitLength, naughtySample, naughtyStrings } from "../helpers.ts";

/**
 * Every one of the 515 naughty strings through every text field of the contract's schemas, where the API decides what
 * it keeps: each is kept exactly as typed (surrounding spaces trimmed where the field trims), or refused with a
 * message a person can read, and only for a reason (blank, a NUL, too long). The *-naughty.test.ts files send a sample
 * of them (naughtySample) end to end, through HTTP and the database, in and out.
 */
const naughty = naughtyStrings();
const show = (s: string) => JSON.stringify(s).slice(0, 80);

interface Field {
  schema: z.ZodType;
  /** The request body (or query) carrying s in the field. */
  body: (s: string) => Record<string, unknown>;
  read: (parsed: Record<string, unknown>) => unknown;
  /** What the field keeps of s when it takes it. */
  kept: (s: string) => string | null;
  /** Why it may refuse s; anything else must be taken. */
  mayRefuse: (s: string) => boolean;
}

const blankOrNul = (s: string) => s.trim() === "" || s.includes("\u0000");
const trimmed = (s: string) => s.trim();
const ticket = { requester_name: "Naughty Tester", requester_email: "naughty@example.com" };

const FIELDS: Record<string, Field> = {
  "ticket subject": {
    schema: createTicketBody,
    body: (s) => ({ ...ticket, subject: fitLength(s, 250), description: "d" }),
    read: (p) => p.subject,
    kept: (s) => fitLength(s, 250).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 250)),
  },
  "ticket description": {
    schema: createTicketBody,
    body: (s) => ({ ...ticket, subject: "s", description: s }),
    read: (p) => p.description,
    kept: trimmed,
    mayRefuse: blankOrNul,
  },
  "reply or note": {
    schema: createCommentBody,
    body: (s) => ({ body: s, is_public: false }),
    read: (p) => p.body,
    kept: trimmed,
    mayRefuse: blankOrNul,
  },
  "ticket search": {
    schema: ticketListQuery,
    body: (s) => ({ search: fitLength(s, 200) }),
    read: (p) => p.search,
    kept: (s) => fitLength(s, 200).trim(),
    mayRefuse: () => false,
  },
  "article title": {
    schema: createArticleBody,
    body: (s) => ({ title: fitLength(s, 200), body: "b", status: "published" }),
    read: (p) => p.title,
    kept: (s) => fitLength(s, 200).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 200)),
  },
  "article body": {
    schema: createArticleBody,
    body: (s) => ({ title: "t", body: s, status: "published" }),
    read: (p) => p.body,
    kept: (s) => s,
    mayRefuse: blankOrNul,
  },
  "category name": {
    schema: createCategoryBody,
    body: (s) => ({ name: fitLength(s, 60) }),
    read: (p) => p.name,
    kept: (s) => fitLength(s, 60).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 60)),
  },
  "article search": {
    schema: articleListQuery,
    body: (s) => ({ search: fitLength(s, 200) }),
    read: (p) => p.search,
    kept: (s) => fitLength(s, 200).trim(),
    mayRefuse: () => false,
  },
  "help center search": {
    schema: helpSearchQuery,
    body: (s) => ({ q: fitLength(s, 200) }),
    read: (p) => p.q,
    kept: (s) => fitLength(s, 200).trim(),
    mayRefuse: () => false,
  },
  "portal ticket subject": {
    schema: createPortalTicketBody,
    body: (s) => ({ subject: fitLength(s, 250), description: "d" }),
    read: (p) => p.subject,
    kept: (s) => fitLength(s, 250).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 250)),
  },
  "portal reply": {
    schema: portalReplyBody,
    body: (s) => ({ body: s }),
    read: (p) => p.body,
    kept: trimmed,
    mayRefuse: blankOrNul,
  },
  "customer's name": {
    schema: updatePortalMeBody,
    body: (s) => ({ name: fitLength(s, 120) }),
    read: (p) => p.name,
    kept: (s) => fitLength(s, 120).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 120)),
  },
  "assistant greeting": {
    schema: updateAiSettingsBody,
    body: (s) => ({ greeting: fitLength(s, 300) }),
    read: (p) => p.greeting,
    kept: (s) => fitLength(s, 300).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 300)),
  },
  "invited member's first name": {
    schema: inviteUserBody,
    body: (s) => ({ email: "a@example.com", firstName: fitLength(s, 80), lastName: "L" }),
    read: (p) => p.firstName,
    kept: (s) => fitLength(s, 80).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 80)),
  },
  "mailbox user name": {
    schema: connectMailboxBody,
    body: (s) => ({ host: "imap.example.com", port: 993, tls: true, user: fitLength(s, 320), password: "p" }),
    read: (p) => p.user,
    kept: (s) => fitLength(s, 320).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 320)),
  },
  "mailbox password": {
    schema: connectMailboxBody,
    body: (s) => ({ host: "imap.example.com", port: 993, tls: true, user: "u", password: fitLength(s, 1000) }),
    read: (p) => p.password,
    // A password is taken as typed, spaces and all: only empty or a NUL is refused.
    kept: (s) => fitLength(s, 1000),
    mayRefuse: (s) => fitLength(s, 1000) === "" || s.includes("\u0000"),
  },
  "company name at sign-up": {
    schema: registerBody,
    body: (s) => ({
      organizationName: fitLength(s, 120),
      firstName: "F",
      lastName: "L",
      email: "a@example.com",
      password: "a long enough password",
    }),
    read: (p) => p.organizationName,
    kept: (s) => fitLength(s, 120).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 120)),
  },
  "billing name on invoices": {
    schema: billingDetailsBody,
    body: (s) => ({ name: fitLength(s, 200) }),
    read: (p) => p.name,
    kept: (s) => fitLength(s, 200).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, 200)),
  },
  "billing address line": {
    schema: billingDetailsBody,
    body: (s) => ({ name: "N", address_line1: fitLength(s, 200) }),
    read: (p) => p.address_line1,
    // Blank is not refused: it means no address line (null).
    kept: (s) => fitLength(s, 200).trim() || null,
    mayRefuse: (s) => s.includes("\u0000"),
  },
};

describe("every naughty string through the contract", () => {
  for (const [name, field] of Object.entries(FIELDS)) {
    it(`as the ${name}: kept as typed, or refused with a readable message for a reason`, () => {
      let taken = 0;
      for (const s of naughty) {
        const result = field.schema.safeParse(field.body(s));
        if (result.success) {
          taken++;
          expect(field.read(result.data as Record<string, unknown>), show(s)).toBe(field.kept(s));
        } else {
          expect(field.mayRefuse(s), `${name} refused ${show(s)}: ${result.error.issues[0]?.message}`).toBe(true);
          const message = result.error.issues[0]?.message ?? "";
          expect(message, show(s)).toMatch(/[A-Za-z]{3}/);
          expect(message, show(s)).not.toMatch(/^Invalid input/);
        }
      }
      expect(taken, name).toBeGreaterThan(naughty.length - 40);
    });
  }

  it("as names of articles, categories and organizations: a slug of letters, digits and dashes", () => {
    for (const s of naughty) {
      expect(slugify(s, { fallback: "article", max: 80 }), show(s)).toMatch(/^[\p{L}\p{N}\p{M}-]+$/u);
    }
  });

  it("keep a sample for the end-to-end tests with the characters most likely to break storage and display", () => {
    const sample = naughtySample();
    expect(sample.length).toBeGreaterThan(100);
    expect(sample.length).toBeLessThan(naughty.length / 3);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character is what the sample must hold.
    expect(sample.some((s) => /[\u0001-\u001f]/.test(s))).toBe(true);
    expect(sample.some((s) => /[\ud800-\udfff]/.test(s))).toBe(true);
    expect(sample.some((s) => /[\u202a-\u202e]/.test(s))).toBe(true);
    expect(sample.some((s) => /<script/i.test(s))).toBe(true);
  });
});
