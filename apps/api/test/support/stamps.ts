import type { ExecuteSql } from "../../src/platform/db.ts";

/**
 * Rewriting when things happened to a ticket (the API stamps them with the real time), for tests of figures that
 * depend on chosen times: its own columns, and the time of its n-th status change (in order).
 */
export function ticketStamps(exec: ExecuteSql) {
  return {
    async stamp(id: string, fields: Record<string, string | null>) {
      const keys = Object.keys(fields);
      await exec(`update tickets set ${keys.map((k, i) => `${k} = $${i + 2}`).join(", ")} where id = $1`, [
        id,
        ...keys.map((k) => fields[k]),
      ]);
    },
    async stampStatus(id: string, n: number, at: string) {
      await exec(
        `update ticket_events set created_at = $3 where id = (
           select id from ticket_events where ticket_id = $1 and type = 'status' order by seq offset $2 limit 1)`,
        [id, n, at],
      );
    },
  };
}
