// npm run bench:topology (after npm run build): throughput and latency through HAProxy, with 1 and with 3 Cove
// instances on one PostgreSQL database behind PgBouncer (scripts/topology.ts, from deploy/), and what a rolling
// restart of the 3 does to them. Figures go into docs/benchmarks.md; nothing asserts on time.
//
// Each run: a fresh topology, one organization with 200 tickets, then the project's closed-loop load generator
// (bench/load.ts) against HAProxy's port: the ticket list's first page and a ticket's detail, 32 clients.
// BENCH_SECONDS sets the measured seconds per row (default 20).

import { startTopology, type Topology } from "../scripts/topology.ts";
import { drive, type Endpoint, type LoadResult, table } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);

async function seed(topology: Topology): Promise<{ token: string; tickets: string[] }> {
  const id = Date.now().toString(36);
  const res = await fetch(`${topology.url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      organizationName: `Bench ${id}`,
      firstName: "Ben",
      lastName: "Chmark",
      email: `bench-${id}@example.com`,
      password: "measure twice 30",
    }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  const tickets: string[] = [];
  for (let i = 0; i < 200; i++) {
    const made = await fetch(`${topology.url}/api/tickets`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        subject: `Bench ticket ${i}`,
        description: "A ticket to read back.",
        requester_name: "Ana Ruiz",
        requester_email: "ana@example.com",
      }),
    });
    if (made.status !== 201) throw new Error(`ticket: ${made.status} ${await made.text()}`);
    tickets.push(((await made.json()) as { ticket: { id: string } }).ticket.id);
  }
  return { token, tickets };
}

function endpoints(token: string, tickets: string[]): Endpoint[] {
  return [
    { name: "ticket list", calls: [{ path: "/api/tickets", token }] },
    { name: "ticket detail", calls: tickets.map((id) => ({ path: `/api/tickets/${id}`, token })) },
  ];
}

async function measure(instances: number): Promise<LoadResult[]> {
  const topology = await startTopology({
    instances,
    oneByOne: true,
    env: { AI_SENTENCE_ENCODER: "false", LOG_LEVEL: "warn" },
  });
  try {
    const port = Number(new URL(topology.url).port);
    const { token, tickets } = await seed(topology);
    const results: LoadResult[] = [];
    for (const endpoint of endpoints(token, tickets)) {
      const result = await drive(endpoint, { port, concurrency, warmupMs: 3000, durationMs: seconds * 1000 });
      results.push({ ...result, name: `${endpoint.name}, ${instances} instance${instances > 1 ? "s" : ""}` });
    }
    if (instances > 1) {
      // The same list while each instance in turn is stopped (SIGTERM: it drains) and started again.
      const list = endpoints(token, tickets)[0] as Endpoint;
      const restarts = async () => {
        await new Promise((r) => setTimeout(r, 4000));
        for (const instance of topology.instances) {
          await topology.stopInstance(instance, "SIGTERM");
          await topology.startInstance(instance);
          await topology.waitForStatus(instance, "UP");
        }
      };
      const started = Date.now();
      const [result] = await Promise.all([
        drive(list, { port, concurrency, warmupMs: 3000, durationMs: 45_000 }),
        restarts().then(() => console.log(`rolling restart took ${((Date.now() - started) / 1000).toFixed(1)} s`)),
      ]);
      results.push({ ...result, name: `ticket list, ${instances} instances, rolling restart` });
    }
    return results;
  } finally {
    await topology.stop();
  }
}

const results = [...(await measure(1)), ...(await measure(3))];
console.log(`\n${concurrency} clients through HAProxy, ${seconds} s per row (the rolling restart row: 45 s)\n`);
console.log(table(results));
