import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = path.join(import.meta.dirname, "check-boundaries.mjs");
let root: string | null = null;

/** A small repository of the given files (path -> text), with the folders the checker reads. */
function tree(files: Record<string, string>): string {
  root = mkdtempSync(path.join(tmpdir(), "boundaries-"));
  const all = {
    "apps/api/src/db/schema/tickets.ts": 'export const tickets = pgTable("tickets", {});',
    "apps/api/src/db/schema/billing.ts": 'export const subscriptions = pgTable("subscriptions", {});',
    "apps/api/src/modules/tickets/tickets.service.ts": "export const ok = 1;",
    "apps/api/src/modules/tickets/index.ts": 'export { ok } from "./tickets.service.ts";',
    "packages/contract/src/brand-colors.ts": "export const brandPalette = 1;",
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** The checker's complaints about a tree (empty: it passed). */
function check(dir: string): string[] {
  try {
    execFileSync(process.execPath, [SCRIPT], { env: { ...process.env, BOUNDARIES_ROOT: dir }, stdio: "pipe" });
    return [];
  } catch (error) {
    const stderr = String((error as { stderr: Buffer }).stderr);
    return stderr.split("\n").slice(1).filter(Boolean);
  }
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

describe("check-boundaries catches each rule's planted violation", () => {
  it("passes a tree that keeps every rule", () => {
    expect(
      check(
        tree({
          "apps/api/src/modules/billing/billing.service.ts": 'import { ok } from "../tickets/index.ts";',
          "apps/api/src/app.ts": 'import { ok } from "./modules/tickets/index.ts";',
          "apps/api/test/tickets/tickets.test.ts": 'import { ok } from "../../src/modules/tickets/tickets.service.ts";',
        }),
      ),
    ).toEqual([]);
  });

  it("a module, app.ts or a seed reaching into another module's file instead of its index.ts", () => {
    const found = check(
      tree({
        "apps/api/src/modules/billing/billing.service.ts": 'import { ok } from "../tickets/tickets.service.ts";',
        "apps/api/src/app.ts": 'import { ok } from "./modules/tickets/tickets.service.ts";',
        "apps/api/src/db/seed.ts": 'import { ok } from "../modules/tickets/tickets.service.ts";',
      }),
    );
    expect(found).toEqual([
      expect.stringContaining("reaches into the tickets module: import what it exports from modules/tickets/index.ts"),
      expect.stringContaining("reaches into the tickets module"),
      expect.stringContaining("reaches into the tickets module"),
    ]);
  });

  it("a package importing an app", () => {
    const found = check(tree({ "packages/contract/src/x.ts": 'import { a } from "../../../apps/web/src/a.ts";' }));
    expect(found).toEqual([expect.stringContaining("a package imports an app")]);
  });

  it("the platform importing a module", () => {
    const found = check(
      tree({ "apps/api/src/platform/jobs.ts": 'import { ok } from "../modules/tickets/tickets.service.ts";' }),
    );
    expect(found).toEqual([expect.stringContaining("the platform imports a module")]);
  });

  it("a web feature reaching into another feature, and a shared lib/ importing a feature", () => {
    const found = check(
      tree({
        "apps/web/src/features/billing/index.ts": "export {};",
        "apps/web/src/features/billing/plan.tsx": "export const plan = 1;",
        "apps/web/src/features/tickets/list.tsx": 'import { plan } from "../billing/plan.tsx";',
        "apps/web/src/features/tickets/ok.tsx": 'import { x } from "../billing/index.ts";',
        "apps/web/src/lib/api.ts": 'import { x } from "../features/billing/index.ts";',
      }),
    );
    expect(found).toEqual([
      expect.stringContaining("reaches into the billing feature"),
      expect.stringContaining("a shared lib/ file imports the billing feature"),
    ]);
  });

  it("a feature or a shared lib/ file importing app/ or pages/", () => {
    const found = check(
      tree({
        "apps/web/src/app/provider.tsx": "export const provider = 1;",
        "apps/web/src/pages/home.tsx": "export const home = 1;",
        "apps/web/src/features/tickets/list.tsx": 'import { provider } from "../../app/provider.tsx";',
        "apps/web/src/lib/api.ts": 'import { home } from "../pages/home.tsx";',
        "apps/web/src/app/router.tsx": 'import { home } from "../pages/home.tsx";',
      }),
    );
    expect(found).toEqual([
      expect.stringContaining("features/tickets/list.tsx: ../../app/provider.tsx: imports app/"),
      expect.stringContaining("lib/api.ts: ../pages/home.tsx: imports pages/"),
    ]);
  });

  it("a module using another module's tables, by import and by raw SQL", () => {
    const found = check(
      tree({
        "apps/api/src/modules/tickets/plans.ts": 'import { subscriptions } from "../../db/schema/billing.ts";',
        "apps/api/src/modules/tickets/raw.ts": "const q = sql`select plan from subscriptions where id = 1`;",
      }),
    );
    expect(found).toEqual([
      expect.stringContaining("the tickets module uses the billing module's tables"),
      expect.stringContaining("raw SQL names subscriptions"),
    ]);
  });

  it("a cycle between modules (every import on it) and between files; a type-only import is no cycle", () => {
    const found = check(
      tree({
        "apps/api/src/modules/billing/billing.service.ts": 'import { ok } from "../tickets/index.ts";',
        "apps/api/src/modules/billing/index.ts": 'export { b } from "./billing.service.ts";',
        "apps/api/src/modules/tickets/tickets.service.ts": 'import { b } from "../billing/index.ts";',
        "apps/api/src/platform/a.ts": 'import type { B } from "./b.ts";',
        "apps/api/src/platform/b.ts": 'import type { A } from "./a.ts";',
      }),
    );
    expect(found).toEqual([
      "import cycle: modules billing -> tickets",
      "import cycle: modules tickets -> billing",
      "import cycle: files apps/api/src/modules/billing/billing.service.ts <-> apps/api/src/modules/billing/index.ts <-> " +
        "apps/api/src/modules/tickets/index.ts <-> apps/api/src/modules/tickets/tickets.service.ts",
    ]);
  });

  it("the chat widget importing a library or another app's file", () => {
    const found = check(
      tree({
        "apps/widget/src/widget.ts": 'import { brandPalette } from "@cove/contract/brand-colors.ts";\nimport "lodash";',
        "apps/widget/src/dom.ts": 'import { api } from "../../web/src/lib/api.ts";',
      }),
    );
    expect(found.sort()).toEqual([
      expect.stringContaining(
        "apps/widget/src/dom.ts: ../../web/src/lib/api.ts: the chat widget imports a file outside",
      ),
      expect.stringContaining("apps/widget/src/widget.ts: lodash: the chat widget imports a library"),
    ]);
  });

  it("a web file calling sonner's toast.error, and a feature's <form> without useContractForm", () => {
    const form = "export const F = () => <form onSubmit={save}><input /></form>;";
    const found = check(
      tree({
        "apps/web/src/lib/toast-error.ts": 'import { toast } from "sonner";\nexport const e = () => toast.error("x");',
        "apps/web/src/features/tickets/copy.tsx": 'import { toast } from "sonner";\ntoast.error("Copy failed");',
        "apps/web/src/features/tickets/ok-toast.tsx": 'import { toast } from "sonner";\ntoast.success("Copied");',
        "apps/web/src/features/tickets/state-form.tsx": `import { useState } from "react";\n${form}`,
        "apps/web/src/features/tickets/hook-form.tsx": `import { useForm } from "react-hook-form";\n${form}`,
        "apps/web/src/features/tickets/contract-form.tsx": `import { useContractForm } from "../../lib/contract-form.ts";\n${form}`,
        "apps/web/src/features/chat/components/send-box.tsx": form,
        "apps/web/src/features/tickets/own-modal.tsx": 'import * as Dialog from "@radix-ui/react-dialog";',
        "apps/web/src/components/ui/modal.tsx": 'import * as Dialog from "@radix-ui/react-dialog";',
        "apps/web/src/features/tickets/state-form.test.tsx": form,
      }),
    );
    expect(found.sort()).toEqual([
      expect.stringContaining("features/tickets/copy.tsx: calls sonner's toast.error"),
      expect.stringContaining("features/tickets/hook-form.tsx: calls react-hook-form's useForm itself"),
      expect.stringContaining("features/tickets/own-modal.tsx: builds its own modal"),
      expect.stringContaining("features/tickets/state-form.tsx: holds a <form> without react-hook-form"),
    ]);
  });

  it("a route opening a tenant transaction itself, and a module opening one on the outer handle", () => {
    const found = check(
      tree({
        "apps/api/src/modules/tickets/tickets.routes.ts":
          "export const r = (req) => withTenant(app.db, principalOf(req), (ctx) => list(ctx));",
        "apps/api/src/modules/tickets/tickets.service.ts":
          "export const ok = (db) => db.transaction(async (tx) => tx);",
        "apps/api/src/modules/tickets/tickets.ok.routes.ts": "export const r = (req) => inRequest(app, req, list);",
        "apps/api/src/modules/tickets/tickets.savepoint.ts":
          "export const s = (ctx) => ctx.db.transaction((sp) => sp);",
        "apps/api/src/modules/auth/auth.service.ts": "export const sign = (db) => db.transaction(async (tx) => tx);",
        "apps/api/src/modules/auth/index.ts": 'export { sign } from "./auth.service.ts";',
      }),
    );
    expect(found.sort()).toEqual([
      expect.stringContaining("tickets/tickets.routes.ts: a route opens a tenant transaction itself"),
      expect.stringContaining("tickets/tickets.service.ts: opens a transaction on the outer handle"),
    ]);
  });

  it("an API route registered by its path or listing its error answers, and a web call by path", () => {
    const found = check(
      tree({
        "apps/api/src/modules/tickets/tickets.routes.ts": [
          "addRoute(app, ticketsApi.list, { handler });",
          'app.get("/api/tickets/:id", { schema: { response: { 200: x, 404: errorSchema } }, handler });',
        ].join("\n"),
        "apps/api/src/modules/tickets/tickets.ok.routes.ts": "addRoute(app, ticketsApi.list, { handler });",
        "apps/api/src/modules/tickets/tickets.old.routes.ts": 'app.post("/api/tickets", { handler });',
        "apps/api/src/modules/chat/widget.routes.ts": 'app.get("/widget.js", { config: { access: "public" } }, h);',
        "apps/web/src/features/tickets/api/tickets.queries.ts": 'export const q = () => apiRequest("/tickets", {});',
        "apps/web/src/features/tickets/api/ok.queries.ts": "export const q = () => callRoute(ticketsApi.list, {});",
        "apps/web/src/lib/api-client.ts": "export const callRoute = (r, o) => apiRequest(r.path, o);",
      }),
    );
    expect(found.sort()).toEqual([
      expect.stringContaining("tickets/tickets.old.routes.ts: registers a route by its path"),
      expect.stringContaining("tickets/tickets.routes.ts: lists error answers by hand"),
      expect.stringContaining("tickets/tickets.routes.ts: registers a route by its path"),
      expect.stringContaining("tickets/api/tickets.queries.ts: sends a request by its path"),
    ]);
  });
});
