import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/platform/db.ts";
import { rememberFileSizes } from "../../src/platform/pglite-file-sizes.ts";
import { tempDirs } from "../support/temp-dirs.ts";

const temp = tempDirs("cove-sizes-");

/** The parts of Emscripten's FS (PGlite's `mod.FS`) the tests drive directly. */
interface EmscriptenFs {
  cwd(): string;
  open(path: string, flags: string): { fd: number };
  close(stream: object): void;
  write(stream: object, buffer: Uint8Array, offset: number, length: number, position: number): number;
  llseek(stream: object, offset: number, whence: number): number;
  ftruncate(fd: number, length: number): void;
  truncate(path: string, length: number): void;
  unlink(path: string): void;
  writeFile(path: string, data: Uint8Array): void;
}
afterAll(() => temp.removeAll());

/** Counts the fstat calls made while work runs (PGlite's NODEFS asks the file's size through fs.fstatSync). */
async function fstatsDuring(work: () => Promise<unknown>): Promise<number> {
  const original = fs.fstatSync;
  let calls = 0;
  fs.fstatSync = ((...args: Parameters<typeof fs.fstatSync>) => {
    calls++;
    return original(...args);
  }) as typeof fs.fstatSync;
  try {
    await work();
  } finally {
    fs.fstatSync = original;
  }
  return calls;
}

/** Each relation's size as PostgreSQL reads it (through the seek) beside its file's size on disk. */
async function sizes(pg: PGlite, dir: string) {
  const rows = await pg.query<{ relname: string; file: string; size: number }>(
    `select c.relname, pg_relation_filepath(c.oid) as file, pg_relation_size(c.oid)::int as size
     from pg_class c where c.relname in ('notes', 'notes_pkey', 'notes_body_idx') order by c.relname`,
  );
  return rows.rows.map((r) => ({
    relname: r.relname,
    postgres: r.size,
    disk: fs.statSync(path.join(dir, r.file)).size,
  }));
}

async function expectSizesAgree(pg: PGlite, dir: string) {
  const read = await sizes(pg, dir);
  expect(read).toHaveLength(3);
  for (const r of read) expect(r.postgres, r.relname).toBe(r.disk);
  return read;
}

async function contents(pg: PGlite) {
  const rows = await pg.query<{ n: number; total: number; longest: number }>(
    "select count(*)::int as n, coalesce(sum(id), 0)::int as total, coalesce(max(length(body)), 0)::int as longest from notes",
  );
  return rows.rows[0];
}

describe("the embedded database remembers its files' sizes", () => {
  it("reads every size right through growth, a vacuum's truncation, a table truncated and rewritten, and a restart", async () => {
    const dir = temp.fresh();
    let pg = new PGlite(dir);
    await pg.waitReady;
    expect(rememberFileSizes(pg)).toBe(true);
    expect(rememberFileSizes(pg)).toBe(true);
    await pg.exec(
      "create table notes (id int primary key, body text not null); create index notes_body_idx on notes (body)",
    );
    await expectSizesAgree(pg, dir);

    // Grows the heap and both indexes page by page.
    await pg.exec("insert into notes select i, repeat(md5(i::text), 8) from generate_series(1, 6000) i");
    const grown = await expectSizesAgree(pg, dir);
    expect(grown.every((r) => r.postgres > 8192 * 10)).toBe(true);
    expect(await contents(pg)).toEqual({ n: 6000, total: 18003000, longest: 256 });

    // The rows at the end removed: vacuum gives the heap's empty tail back (ftruncate), and later inserts extend it again.
    await pg.exec("delete from notes where id > 1000");
    await pg.exec("vacuum notes");
    const vacuumed = await expectSizesAgree(pg, dir);
    expect(vacuumed.find((r) => r.relname === "notes")?.postgres).toBeLessThan(
      grown.find((r) => r.relname === "notes")?.postgres ?? 0,
    );
    await pg.exec("insert into notes select i, repeat('x', 300) from generate_series(1001, 3000) i");
    await expectSizesAgree(pg, dir);
    expect(await contents(pg)).toEqual({ n: 3000, total: 4501500, longest: 300 });

    // New files (truncate, then a rewrite), filled again.
    await pg.exec("truncate notes");
    await expectSizesAgree(pg, dir);
    await pg.exec("insert into notes select i, md5(i::text) from generate_series(1, 2500) i");
    await pg.exec("vacuum full notes");
    await expectSizesAgree(pg, dir);
    expect(await contents(pg)).toEqual({ n: 2500, total: 3126250, longest: 32 });

    await pg.close();
    pg = new PGlite(dir);
    await pg.waitReady;
    expect(await contents(pg)).toEqual({ n: 2500, total: 3126250, longest: 32 });
    await expectSizesAgree(pg, dir);
    await pg.close();
  });

  it("forgets a file's size when it is written, truncated through its descriptor or its path, or created again", async () => {
    const dir = temp.fresh();
    const pg = new PGlite(dir);
    await pg.waitReady;
    rememberFileSizes(pg);
    const FS = (pg as unknown as { mod: { FS: EmscriptenFs } }).mod.FS;
    const file = `${FS.cwd()}/scratch`;
    const onDisk = () => fs.statSync(path.join(dir, "scratch")).size;
    const end = (stream: object) => FS.llseek(stream, 0, 2);
    let stream = FS.open(file, "w+");
    expect(end(stream)).toBe(0);
    FS.write(stream, new Uint8Array(5000), 0, 5000, 0);
    expect([end(stream), onDisk()]).toEqual([5000, 5000]);
    FS.write(stream, new Uint8Array(10), 0, 10, 8182);
    expect([end(stream), onDisk()]).toEqual([8192, 8192]);
    expect(FS.llseek(stream, -192, 2)).toBe(8000);
    FS.ftruncate(stream.fd, 100);
    expect([end(stream), onDisk()]).toEqual([100, 100]);
    FS.truncate(file, 40);
    expect([end(stream), onDisk()]).toEqual([40, 40]);
    FS.close(stream);
    // Opened again with O_TRUNC (a truncation through the node), and removed and made again (a new node).
    stream = FS.open(file, "w");
    expect([end(stream), onDisk()]).toEqual([0, 0]);
    FS.write(stream, new Uint8Array(7), 0, 7, 0);
    FS.close(stream);
    FS.unlink(file);
    FS.writeFile(file, new Uint8Array(3));
    stream = FS.open(file, "r");
    expect([end(stream), onDisk()]).toEqual([3, 3]);
    expect(() => FS.llseek(stream, -4, 2)).toThrow();
    FS.close(stream);
    await pg.close();
  });

  it("plans a statement again without asking the filesystem for its tables' sizes each time", async () => {
    const dir = temp.fresh();
    const database = await openDatabase({ kind: "embedded", dir });
    try {
      const plan = (i: number) => database.executeSql(`select count(*) from tickets where ticket_number = ${i}`);
      await plan(0);
      // Each statement is new text, so each is planned, and planning reads the size of every index of tickets.
      const calls = await fstatsDuring(async () => {
        for (let i = 1; i <= 20; i++) await plan(i);
      });
      expect(calls).toBe(0);
    } finally {
      await database.close();
    }
  });
});
