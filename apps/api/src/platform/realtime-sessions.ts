import { CLOSE } from "@cove/contract/realtime.ts";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Database, queryRows } from "./db.ts";
import { type Conn, close, type Identity } from "./realtime-hub.ts";
import type { AnyPrincipal } from "./tenancy.ts";

/** How often every socket's session is checked again (a revoked session's socket closes within this). */
const SESSION_CHECK_MS = 3_000;

/** Who a signed-in socket is: its actor and the name others see. */
export async function identify(database: Database, principal: AnyPrincipal): Promise<Identity> {
  if (principal.kind === "staff") {
    const [me] = await queryRows<{ name: string }>(
      database.db,
      sql`select trim(first_name || ' ' || last_name) as name from users
          where id = ${principal.userId} and organization_id = ${principal.orgId}`,
    );
    return { actor: { kind: "staff", id: principal.userId }, name: me?.name ?? "A teammate" };
  }
  if (principal.kind === "contact") {
    // The name staff see when a visitor is in its chat (presence topics that admit contacts).
    const [me] = await queryRows<{ name: string }>(
      database.db,
      sql`select name from contacts where id = ${principal.contactId} and organization_id = ${principal.orgId}`,
    );
    return { actor: { kind: "contact", id: principal.contactId }, name: me?.name ?? "Visitor" };
  }
  return { actor: { kind: "api_key", id: principal.keyId }, name: "" };
}

/** Closes the sockets whose session has ended (revoked, expired, user deactivated), every few seconds and on demand. */
export class SessionWatch {
  private timer: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(
    private readonly conns: ReadonlySet<Conn>,
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.checking) return;
      this.checking = true;
      void this.check().finally(() => {
        this.checking = false;
      });
    }, SESSION_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One statement per kind of session. */
  async check(): Promise<void> {
    const staff = new Map<string, Conn[]>();
    const contacts = new Map<string, Conn[]>();
    for (const conn of this.conns) {
      const p = conn.principal;
      if (!p || p.kind === "api_key") continue;
      const map = p.kind === "staff" ? staff : contacts;
      map.set(p.sessionId, [...(map.get(p.sessionId) ?? []), conn]);
    }
    let live: Set<string>;
    try {
      live = await this.liveSessions([...staff.keys()], [...contacts.keys()]);
    } catch (err) {
      this.log.warn({ err }, "realtime session check failed");
      return;
    }
    for (const [sessionId, list] of [...staff, ...contacts]) {
      if (live.has(sessionId)) continue;
      for (const conn of list) close(conn, CLOSE.unauthorized, "Your session has ended. Please sign in again.");
    }
  }

  private async liveSessions(staff: string[], contacts: string[]): Promise<Set<string>> {
    const live = new Set<string>();
    if (staff.length > 0) {
      const rows = await queryRows<{ id: string }>(
        this.database.db,
        sql`select s.id from sessions s join users u on u.id = s.user_id
            where s.id = any(string_to_array(${staff.join(",")}::text, ',')::uuid[])
              and s.expires_at > now() and u.status = 'active'`,
      );
      for (const r of rows) live.add(r.id);
    }
    if (contacts.length > 0) {
      const rows = await queryRows<{ id: string }>(
        this.database.db,
        sql`select id from contact_sessions
            where id = any(string_to_array(${contacts.join(",")}::text, ',')::uuid[])
              and expires_at > now()`,
      );
      for (const r of rows) live.add(r.id);
    }
    return live;
  }
}
