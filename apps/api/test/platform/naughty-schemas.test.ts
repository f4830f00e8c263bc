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

/** A field of at most max characters that trims what it keeps and refuses only blank or a NUL. */
function short(schema: z.ZodType, max: number, body: (s: string) => Record<string, unknown>, key: string): Field {
  return {
    schema,
    body: (s) => body(fitLength(s, max)),
    read: (p) => p[key],
    kept: (s) => fitLength(s, max).trim(),
    mayRefuse: (s) => blankOrNul(fitLength(s, max)),
  };
}

/** A text without a length of its own (the body's limit bounds it): trimmed, refused only blank or with a NUL. */
const long = (schema: z.ZodType, body: (s: string) => Record<string, unknown>, key: string): Field => ({
  schema,
  body,
  read: (p) => p[key],
  kept: trimmed,
  mayRefuse: blankOrNul,
});

/** A search box of at most max characters: it trims what it keeps and refuses nothing. */
const search = (schema: z.ZodType, max: number, body: (s: string) => Record<string, unknown>, key: string): Field => ({
  ...short(schema, max, body, key),
  mayRefuse: () => false,
});

const FIELDS: Record<string, Field> = {
  "ticket subject": short(createTicketBody, 250, (s) => ({ ...ticket, subject: s, description: "d" }), "subject"),
  "ticket description": long(createTicketBody, (s) => ({ ...ticket, subject: "s", description: s }), "description"),
  "reply or note": long(createCommentBody, (s) => ({ body: s, is_public: false }), "body"),
  "ticket search": search(ticketListQuery, 200, (s) => ({ search: s }), "search"),
  "article title": short(createArticleBody, 200, (s) => ({ title: s, body: "b", status: "published" }), "title"),
  "article body": {
    schema: createArticleBody,
    body: (s) => ({ title: "t", body: s, status: "published" }),
    read: (p) => p.body,
    kept: (s) => s,
    mayRefuse: blankOrNul,
  },
  "category name": short(createCategoryBody, 60, (s) => ({ name: s }), "name"),
  "article search": search(articleListQuery, 200, (s) => ({ search: s }), "search"),
  "help center search": search(helpSearchQuery, 200, (s) => ({ q: s }), "q"),
  "portal ticket subject": short(createPortalTicketBody, 250, (s) => ({ subject: s, description: "d" }), "subject"),
  "portal reply": long(portalReplyBody, (s) => ({ body: s }), "body"),
  "customer's name": short(updatePortalMeBody, 120, (s) => ({ name: s }), "name"),
  "assistant greeting": short(updateAiSettingsBody, 300, (s) => ({ greeting: s }), "greeting"),
  "invited member's first name": short(
    inviteUserBody,
    80,
    (s) => ({ email: "a@example.com", firstName: s, lastName: "L" }),
    "firstName",
  ),
  "mailbox user name": short(
    connectMailboxBody,
    320,
    (s) => ({ host: "imap.example.com", port: 993, tls: true, user: s, password: "p" }),
    "user",
  ),
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
  "billing name on invoices": short(billingDetailsBody, 200, (s) => ({ name: s }), "name"),
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
