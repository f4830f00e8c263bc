import type { OnboardingAnswer, OnboardingStepId } from "@cove/contract/onboarding.ts";
import { describe, expect, it } from "vitest";
import { receiveMail } from "../../src/modules/email/email.inbound.ts";
import { addMember, client, createArticle, registerOrg, testAppForFile, unique } from "../helpers.ts";

const t = testAppForFile();

const call = client(() => t.app, { newAddressEachCall: true });
type Org = Awaited<ReturnType<typeof registerOrg>>;

async function checklist(who: { token: string }): Promise<OnboardingAnswer> {
  const res = await call(who, "GET", "/api/onboarding");
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OnboardingAnswer;
}

/** The steps done, as the dashboard ticks them. */
async function done(who: { token: string }): Promise<OnboardingStepId[]> {
  return (await checklist(who)).steps.filter((s) => s.done).map((s) => s.id);
}

async function dismiss(who: { token: string }, dismissed: unknown) {
  return call(who, "PUT", "/api/onboarding", { dismissed });
}

/** Every step of the checklist, done the way an owner does them. */
const steps = {
  invite: async (org: Org) => {
    const res = await call(org, "POST", "/api/users/invite", {
      email: `sam-${unique()}@example.com`,
      firstName: "Sam",
      lastName: "Lee",
    });
    expect(res.statusCode, res.body).toBe(201);
  },
  email: async (org: Org) => {
    const raw = Buffer.from(
      [
        "From: Ana Ruiz <ana@example.com>",
        `To: ${org.user.organizationSlug}@in.cove.test`,
        "Subject: Where is my order?",
        `Message-ID: <${unique()}@example.com>`,
        "Content-Type: text/plain; charset=utf-8",
        "",
        "It has been two weeks.",
        "",
      ].join("\r\n"),
    );
    const filed = await receiveMail(t.database.db, org.user.organizationId, {
      raw,
      envelopeFrom: "ana@example.com",
      tag: null,
    });
    expect(filed.result).toBe("ticket");
  },
  widget: async (org: Org) => {
    const res = await call(null, "POST", `/api/public/${org.user.organizationSlug}/chat/sessions`, {
      name: "Lee Park",
    });
    expect(res.statusCode, res.body).toBe(201);
  },
  articles: async (org: Org, n: number) => {
    for (let i = 0; i < n; i++) await createArticle(t.app, org, { status: "published" });
  },
  hours: async (org: Org) => {
    const res = await call(org, "PUT", "/api/automation/sla", {
      targets: [],
      business_hours: { days: [1, 2, 3, 4, 5, 6], opens: "08:00", closes: "18:00" },
    });
    expect(res.statusCode, res.body).toBe(200);
  },
};

describe("the getting-started checklist", () => {
  it("starts with nothing done, in the dashboard's order, and not dismissed", async () => {
    const org = await registerOrg(t.app);
    expect(await checklist(org)).toEqual({
      steps: [
        { id: "invite_teammate", done: false, progress: null },
        { id: "connect_email", done: false, progress: null },
        { id: "add_widget", done: false, progress: null },
        { id: "write_articles", done: false, progress: { count: 0, target: 3 } },
        { id: "set_business_hours", done: false, progress: null },
      ],
      dismissed: false,
    });
  });

  it("ticks each step when the organization does it, and only then", async () => {
    const org = await registerOrg(t.app);
    await steps.invite(org);
    expect(await done(org)).toEqual(["invite_teammate"]);
    await steps.email(org);
    expect(await done(org)).toEqual(["invite_teammate", "connect_email"]);
    await steps.widget(org);
    expect(await done(org)).toEqual(["invite_teammate", "connect_email", "add_widget"]);

    // Drafts are not in the help center: they do not count, and two published articles are not three.
    await createArticle(t.app, org, { status: "draft" });
    await steps.articles(org, 2);
    let list = await checklist(org);
    expect(list.steps.find((s) => s.id === "write_articles")).toEqual({
      id: "write_articles",
      done: false,
      progress: { count: 2, target: 3 },
    });
    await steps.articles(org, 2);
    list = await checklist(org);
    expect(list.steps.find((s) => s.id === "write_articles")).toEqual({
      id: "write_articles",
      done: true,
      progress: { count: 3, target: 3 },
    });

    // Saving SLA targets alone leaves the business hours at their default.
    const targets = await call(org, "PUT", "/api/automation/sla", {
      targets: [{ priority: "urgent", first_response_hours: 1, resolution_hours: 4, business_hours: false }],
    });
    expect(targets.statusCode, targets.body).toBe(200);
    expect(await done(org)).not.toContain("set_business_hours");
    await steps.hours(org);
    expect(await done(org)).toEqual([
      "invite_teammate",
      "connect_email",
      "add_widget",
      "write_articles",
      "set_business_hours",
    ]);
  });

  it("counts a member who joined as much as one invited", async () => {
    const org = await registerOrg(t.app);
    await addMember(t.database, org.user.organizationId);
    expect(await done(org)).toEqual(["invite_teammate"]);
  });

  it("is dismissed by each member for themselves, and can be brought back", async () => {
    const org = await registerOrg(t.app);
    const otherAdmin = await addMember(t.database, org.user.organizationId, { role: "admin" });
    const res = await dismiss(org, true);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as OnboardingAnswer).dismissed).toBe(true);
    expect((await checklist(org)).dismissed).toBe(true);
    // Twice is the same as once.
    expect((await dismiss(org, true)).statusCode).toBe(200);
    // The other admin, still setting up, keeps it.
    expect((await checklist(otherAdmin)).dismissed).toBe(false);

    const back = await dismiss(org, false);
    expect(back.statusCode).toBe(200);
    expect((back.json() as OnboardingAnswer).dismissed).toBe(false);
    expect((await checklist(org)).dismissed).toBe(false);
  });

  it("answers a clear 400 for a body that is not a yes or no, and changes nothing", async () => {
    const org = await registerOrg(t.app);
    for (const body of [{ dismissed: "yes" }, {}, { dismissed: null }]) {
      const res = await call(org, "PUT", "/api/onboarding", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: "dismissed must be true or false" });
    }
    const noBody = await call(org, "PUT", "/api/onboarding");
    expect(noBody.statusCode).toBe(400);
    expect((await checklist(org)).dismissed).toBe(false);
  });
});

describe("who reads the checklist", () => {
  it("is every member of the organization: an agent reads the same steps and dismisses only their own", async () => {
    const org = await registerOrg(t.app);
    await steps.widget(org);
    const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
    const seen = await checklist(agent);
    expect(seen.steps.filter((s) => s.done).map((s) => s.id)).toEqual(["invite_teammate", "add_widget"]);
    expect((await dismiss(agent, true)).statusCode).toBe(200);
    expect((await checklist(agent)).dismissed).toBe(true);
    expect((await checklist(org)).dismissed).toBe(false);
  });

  it("is nobody signed out", async () => {
    expect((await call(null, "GET", "/api/onboarding")).statusCode).toBe(401);
    expect((await call(null, "PUT", "/api/onboarding", { dismissed: true })).statusCode).toBe(401);
  });

  it("never shows one organization another's progress or dismissal", async () => {
    const busy = await registerOrg(t.app);
    const quiet = await registerOrg(t.app);
    await steps.invite(busy);
    await steps.email(busy);
    await steps.widget(busy);
    await steps.articles(busy, 3);
    await steps.hours(busy);
    expect(await done(busy)).toHaveLength(5);
    expect((await dismiss(busy, true)).statusCode).toBe(200);

    const own = await checklist(quiet);
    expect(own.steps.every((s) => !s.done)).toBe(true);
    expect(own.steps.find((s) => s.id === "write_articles")?.progress).toEqual({ count: 0, target: 3 });
    expect(own.dismissed).toBe(false);
    // And quiet's dismissal is quiet's alone.
    expect((await dismiss(quiet, true)).statusCode).toBe(200);
    expect((await dismiss(quiet, false)).statusCode).toBe(200);
    expect((await checklist(busy)).dismissed).toBe(true);
  });
});
