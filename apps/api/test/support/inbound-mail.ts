import type { Ticket } from "@cove/contract/tickets.ts";
import { afterAll, beforeAll } from "vitest";
import { type Receiver, startReceiver } from "../../src/modules/email/email.receiver.ts";
import { client, registerOrg, testAppWithMail } from "../helpers.ts";

export const INBOUND_DOMAIN = "in.cove.test";

/** An organization as the inbound email tests use it: its admin's token, its id and its slug (its address). */
export interface InboundOrg {
  token: string;
  id: string;
  slug: string;
}

/**
 * For a file of inbound email tests: the app with a local SMTP server taking what it sends, and the real SMTP receiver
 * in front of it on a free port (mail comes in at `<slug>@in.cove.test`); the receiver stops before the app.
 */
export function inboundMailForFile() {
  const { t, smtp } = testAppWithMail({
    email: { inboundDomain: INBOUND_DOMAIN, retryLimit: 1, retryDelaySeconds: 1 },
  });
  const receiver = {} as Receiver;
  beforeAll(async () => {
    const started = await startReceiver({
      db: t.database.db,
      domain: INBOUND_DOMAIN,
      port: 0,
      host: "127.0.0.1",
      log: t.app.log,
    });
    Object.assign(receiver, started);
  });
  afterAll(() => receiver.close());
  const call = client(() => t.app);

  async function newOrg(): Promise<InboundOrg> {
    const org = await registerOrg(t.app);
    return { token: org.token, id: org.user.organizationId, slug: org.user.organizationSlug };
  }

  /** The organization's tickets in the order they were made, as the API shows them. */
  async function ticketsOf(org: InboundOrg): Promise<Ticket[]> {
    const { rows } = await t.database.executeSql(
      "select id from tickets where organization_id = $1 order by ticket_number",
      [org.id],
    );
    const list: Ticket[] = [];
    for (const row of rows as { id: string }[]) {
      list.push((await call(org.token, "GET", `/api/tickets/${row.id}`)).json().ticket as Ticket);
    }
    return list;
  }

  return { t, smtp, receiver, call, newOrg, ticketsOf };
}
