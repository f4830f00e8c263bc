#!/usr/bin/env node
// The folder rules of ARCHITECTURE.md, checked on every import so they hold without anyone remembering them:
//  1. packages/* never import from apps/*;
//  2. the API's platform/ knows no module (modules build on the platform, never the other way round);
//  0. an API module is reached only through its index.ts (its front door: what other modules, app.ts and the seeds
//     may use), never by importing another of its files; tests may import any file;
//  3. a web feature reaches another feature only through that feature's index.ts (what it deliberately exports), and
//     the web's shared folders (lib/, components/) import no feature at all. Tests may use another feature's test/
//     fixtures. The composition root (app/, pages/) wires features together and may import any of them;
//  4. an API module reads and writes its own tables (db/schema/<module>.ts) and the core ones every module is scoped
//     by (organizations, users); another module's tables it reaches through that module's functions, which take the
//     caller's transaction. Both ways of naming a table count: importing its schema file, and raw SQL naming it by
//     text (FROM, JOIN, UPDATE, INSERT INTO, DELETE FROM in a sql`...` template or a sql.raw / execute string);
//  5. no cycles: between API modules (modules/<a> imports modules/<b> and back, however indirectly), and between the
//     files of apps/ and packages/ (type-only imports aside: they vanish at build). A lower module that needs something
//     of one built on it gets it from app.ts (ARCHITECTURE.md, "Boundaries"), never by importing it;
//  6. the chat widget (apps/widget), which every page of a customer's website loads, imports its own files and the
//     contract, nothing else (no other app, no library: its budget is 25 KB gzip);
//  7. the web has one way to do two everyday things (CODE_STYLE.md, "Web"): an error toast goes through
//     lib/toast-error.ts (no other file calls sonner's toast.error), and a form in a feature is a react-hook-form
//     form (it imports react-hook-form, or lib/contract-form.ts which wraps it) made by useContractForm (a feature
//     never calls react-hook-form's useForm itself). The exceptions are in FORM_EXCEPTIONS, each with its reason. A
//     feature's modal is one of the shared ones (components/ui/dialog-shell.tsx): no feature imports Radix's dialog.
//  8. the API has one way into a transaction (docs/decisions/2026-11-29-one-way-into-a-transaction.md): a route's work
//     goes through inRequest, so a route file never opens withTenant, withContact or withApiKey itself; and a module
//     opens a transaction on the outer handle (db.transaction, as the owner role, with no organization confined) only
//     in the files of OWNER_TRANSACTIONS, each with its reason. A savepoint inside a transaction (tx.transaction,
//     ctx.db.transaction) is not a way in.
//  9. every /api route is an entry of the contract's route table (docs/decisions/2026-11-30-route-table.md): a module
//     registers it with addRoute (platform/routes.ts), never by a path string (app.get("/api/..."), app.route({ url })),
//     and lists no error answers by hand (errorSchema): they are derived from the entry. On the web, only
//     lib/api-client.ts sends a request by its path (apiRequest); everything else calls an entry with callRoute.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const REPOSITORY = path.resolve(import.meta.dirname, "..");
// Its own tests (check-boundaries.test.ts) point it at a small tree of planted violations instead.
const ROOT = process.env.BOUNDARIES_ROOT ? path.resolve(process.env.BOUNDARIES_ROOT) : REPOSITORY;
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|[\s;])import\s*["']([^"']+)["']/g;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

const rel = (file) => path.relative(ROOT, file).split(path.sep).join("/");
const isTest = (file) => /\.test\.tsx?$/.test(file) || /\/test\//.test(file);

/** The problem with file importing target (both relative to the root), or null when the import is allowed. */
function problem(file, target) {
  if (file.startsWith("packages/") && target.startsWith("apps/")) return "a package imports an app";
  if (file.startsWith("apps/api/src/platform/") && target.startsWith("apps/api/src/modules/")) {
    return "the platform imports a module";
  }
  // An API module is used through its front door (modules/<m>/index.ts), by other modules, app.ts and the seeds alike.
  const modules = "apps/api/src/modules/";
  if (target.startsWith(modules) && file.startsWith("apps/api/src/") && !isTest(file)) {
    const [module, ...rest] = target.slice(modules.length).split("/");
    const from = file.startsWith(modules) ? file.slice(modules.length).split("/")[0] : null;
    if (from !== module && rest.join("/") !== "index.ts") {
      return `reaches into the ${module} module: import what it exports from modules/${module}/index.ts`;
    }
  }
  const web = "apps/web/src/";
  // Features and the shared parts never import where they are put together (app/, pages/).
  const assembly = /^apps\/web\/src\/(app|pages)\//;
  if (/^apps\/web\/src\/(features|lib|components)\//.test(file) && assembly.test(target)) {
    return `imports ${target.slice(web.length).split("/")[0]}/, where features are put together: move what it needs to lib/`;
  }
  if (!file.startsWith(web) || !target.startsWith(`${web}features/`)) return null;
  const [, feature, ...rest] = target.slice(web.length).split("/");
  const inside = file.slice(web.length).split("/");
  if (inside[0] === "app" || inside[0] === "pages") return null;
  if (inside[0] === "lib" || inside[0] === "components") {
    return isTest(file) ? null : `a shared ${inside[0]}/ file imports the ${feature} feature`;
  }
  if (inside[0] !== "features" || inside[1] === feature) return null;
  if (rest.join("/") === "index.ts") return null;
  if (isTest(file) && rest[0] === "test") return null;
  return `reaches into the ${feature} feature: import what it exports from features/${feature}/index.ts`;
}

/** Tables of db/schema every module may use: the organization that scopes each row, and its members. */
const CORE_TABLES = new Set(["organizations", "users", "columns"]);

/** The tables problem of an API module file importing a schema file, or null. */
function tablesProblem(file, target) {
  const modules = "apps/api/src/modules/";
  const schema = "apps/api/src/db/schema/";
  if (!file.startsWith(modules) || !target.startsWith(schema)) return null;
  const module = file.slice(modules.length).split("/")[0];
  const tables = target.slice(schema.length).replace(/\.ts$/, "");
  if (tables === module || CORE_TABLES.has(tables)) return null;
  return `the ${module} module uses the ${tables} module's tables: call that module's functions instead`;
}

const SCHEMA_DIR = path.join(ROOT, "apps/api/src/db/schema");
const MODULES_DIR = path.join(ROOT, "apps/api/src/modules");

/** Table name -> the schema file (without .ts) that declares it with pgTable("name", ...). */
const TABLE_FILE = new Map();
for (const entry of readdirSync(SCHEMA_DIR)) {
  for (const m of readFileSync(path.join(SCHEMA_DIR, entry), "utf8").matchAll(/pgTable\(\s*["'`]([\w]+)["'`]/g)) {
    TABLE_FILE.set(m[1], entry.replace(/\.ts$/, ""));
  }
}

/** Who owns a schema file's tables: its module, or the platform (answer-cache, events: no module of that name). */
const ownerOf = (tables) => (existsSync(path.join(MODULES_DIR, tables)) ? `the ${tables} module` : "the platform");

/** The SQL a source file holds as text: sql`...` templates (interpolations blanked) and sql.raw / execute strings. */
function sqlTexts(text) {
  const out = [];
  const before = (at) => text.slice(Math.max(0, at - 80), at);
  const regexCanStart = (at) => /(^|[=(,:;!&|?{}[+\-*%<>~^]|\breturn|\btypeof)\s*$/.test(before(at));
  // Skips a string or regex literal starting at at (its opening quote); answers the index after it and its body.
  const literal = (at, quote) => {
    let j = at + 1;
    let inClass = false;
    while (j < text.length && (text[j] !== quote || inClass) && text[j] !== "\n") {
      if (text[j] === "\\") j++;
      else if (quote === "/" && text[j] === "[") inClass = true;
      else if (quote === "/" && text[j] === "]") inClass = false;
      j++;
    }
    return [j + 1, text.slice(at + 1, j)];
  };
  // Reads a template from its opening backtick; nested templates in ${...} are read (and kept) on their own.
  const template = (at) => {
    const tag = before(at);
    let body = "";
    let j = at + 1;
    while (j < text.length && text[j] !== "`") {
      if (text[j] === "\\") {
        body += text.slice(j, j + 2);
        j += 2;
      } else if (text[j] === "$" && text[j + 1] === "{") {
        body += " ? ";
        j = code(j + 2, "}");
      } else body += text[j++];
    }
    if (/\bsql\s*(<[^`;]*>)?\s*$/.test(tag) || /(\bsql\.raw|\.execute|\.query|executeSql)\(\s*$/.test(tag))
      out.push(body);
    return j + 1;
  };
  // Reads code up to the closing character (or the end), skipping comments and literals and collecting SQL.
  const code = (at, close) => {
    let j = at;
    let depth = 0;
    while (j < text.length) {
      const c = text[j];
      if (c === close && depth === 0) return j + 1;
      if (c === "{") depth++;
      else if (c === "}") depth--;
      if (c === "/" && text[j + 1] === "/") j = text.indexOf("\n", j) === -1 ? text.length : text.indexOf("\n", j);
      else if (c === "/" && text[j + 1] === "*")
        j = text.indexOf("*/", j + 2) === -1 ? text.length : text.indexOf("*/", j + 2) + 2;
      else if (c === "`") j = template(j);
      else if (c === '"' || c === "'") {
        const [next, body] = literal(j, c);
        if (/(\bsql\.raw|\.execute|\.query|executeSql)\(\s*$/.test(before(j))) out.push(body);
        j = next;
      } else if (c === "/" && regexCanStart(j)) j = literal(j, "/")[0];
      else j++;
    }
    return j;
  };
  code(0, null);
  return out;
}

/** A table named where a statement reads or writes it (not a column such as t.from or "tickets"."id"). */
const TABLE_USE = /\b(?:from|join|update|into)\s+(?:only\s+)?(?:public\.)?"?([a-z_][a-z0-9_]*)"?(?![\w."])/gi;

/** The raw SQL problems of an API module file: tables of another module (or of the platform) named by text. */
function rawSqlProblems(file, text) {
  const modules = "apps/api/src/modules/";
  if (!file.startsWith(modules)) return [];
  const module = file.slice(modules.length).split("/")[0];
  const named = new Set();
  for (const sqlText of sqlTexts(text)) {
    for (const m of sqlText.replace(/--[^\n]*/g, "").matchAll(TABLE_USE)) {
      const table = m[1].toLowerCase();
      const tables = TABLE_FILE.get(table);
      if (tables && tables !== module && !CORE_TABLES.has(tables)) named.add(`${table}|${tables}`);
    }
  }
  return [...named].map((entry) => {
    const [table, tables] = entry.split("|");
    return `raw SQL names ${table}, ${ownerOf(tables)}'s table (db/schema/${tables}.ts): call its functions instead`;
  });
}

/** Rule 5: what the chat widget's file may import (a relative path, or a bare specifier). */
function widgetProblem(file, spec) {
  if (!file.startsWith("apps/widget/src/")) return null;
  if (spec.startsWith(".")) {
    const target = rel(path.resolve(path.dirname(path.join(ROOT, file)), spec));
    return target.startsWith("apps/widget/src/") ? null : "the chat widget imports a file outside apps/widget";
  }
  return spec.startsWith("@cove/contract/") ? null : "the chat widget imports a library: it must stay small";
}

/** Rule 7: feature files whose <form> is not react-hook-form's, on purpose. */
const FORM_EXCEPTIONS = new Map([
  ["apps/web/src/features/chat/components/send-box.tsx", "a single-input live box: it sends and clears as you chat"],
  [
    "apps/web/src/features/ai/components/assistant-chat.tsx",
    "a single-input live box: the test chat with the assistant",
  ],
  ["apps/web/src/features/billing/components/stripe-payment-form.tsx", "Stripe Elements holds the card's fields"],
  [
    "apps/web/src/features/billing/components/test-payment-form.tsx",
    "stands in for Stripe Elements in test mode: the card's fields stay in the page and the test provider checks them",
  ],
]);

const TOAST_HOME = "apps/web/src/lib/toast-error.ts";
const imports = (text, spec) => new RegExp(`from\\s*["']${spec}["']`).test(text);

/** Rule 8: the module files that open owner-role transactions, and why they may (none is a signed-in request's work). */
const OWNER_TRANSACTIONS = new Map([
  [
    "apps/api/src/modules/auth/auth.service.ts",
    "registering, signing in and resetting a password: no session exists yet",
  ],
  ["apps/api/src/modules/auth/accept-invite.service.ts", "accepting an invitation: the token finds the organization"],
  ["apps/api/src/modules/portal/portal-sign-in.service.ts", "a portal sign-in link: no contact session exists yet"],
  ["apps/api/src/modules/portal/portal-demo.ts", "resetting the demo customer at start-up, before any request"],
  ["apps/api/src/modules/organizations/erase.ts", "erasing an organization: the row every tenant row cascades from"],
  [
    "apps/api/src/modules/organizations/export.service.ts",
    "a job requeueing the exports of dead instances, across organizations",
  ],
  [
    "apps/api/src/modules/webhooks/webhooks.worker.ts",
    "the delivery worker, which claims deliveries across organizations",
  ],
]);

/** Rule 8's problems with an API module file, as texts. */
function transactionProblems(file, text) {
  if (!file.startsWith(MODULES) || isTest(file)) return [];
  const found = [];
  if (file.endsWith(".routes.ts") && /\bwith(Tenant|Contact|ApiKey)\s*\(/.test(text)) {
    found.push("a route opens a tenant transaction itself: use inRequest (platform/auth.ts)");
  }
  if (/(?<![.\w])db\.transaction\s*\(/.test(text) && !OWNER_TRANSACTIONS.has(file)) {
    found.push("opens a transaction on the outer handle: use inRequest, or withSystem outside a request");
  }
  return found;
}

/** Rule 9's problems with an API module file: every /api route comes from the route table. */
function routeTableProblems(file, text) {
  if (!file.startsWith(MODULES) || isTest(file)) return [];
  const found = [];
  if (/\.(?:get|post|put|patch|delete|route)\s*(?:<[^>]*>)?\s*\(\s*(?:["'`]\/api\/|\{\s*method\b)/.test(text)) {
    found.push("registers a route by its path: put it in the contract's route table and register it with addRoute");
  }
  if (/\berrorSchema\b/.test(text)) found.push("lists error answers by hand: addRoute derives them from the table");
  return found;
}

const API_CLIENT = "apps/web/src/lib/api-client.ts";

/** Rule 7's problems with a web file, as texts. */
function oneWayProblems(file, text) {
  if (!file.startsWith("apps/web/src/")) return [];
  const found = [];
  if (file !== TOAST_HOME && imports(text, "sonner") && /\btoast\.error\s*\(/.test(text)) {
    found.push("calls sonner's toast.error: use toastError (lib/toast-error.ts)");
  }
  const form = file.startsWith("apps/web/src/features/") && file.endsWith(".tsx") && !isTest(file);
  if (form && /<form[\s>]/.test(text) && !FORM_EXCEPTIONS.has(file)) {
    const hookForm = imports(text, "react-hook-form") || imports(text, "(?:\\.\\./)+lib/contract-form\\.ts");
    if (!hookForm) found.push("holds a <form> without react-hook-form: use useContractForm (lib/contract-form.ts)");
  }
  if (file !== API_CLIENT && !isTest(file) && /\bapiRequest\s*(?:<[^>]*>)?\s*\(/.test(text)) {
    found.push("sends a request by its path: call the route's entry with callRoute (lib/api-client.ts)");
  }
  const feature = file.startsWith("apps/web/src/features/");
  if (feature && /import\s*\{[^}]*\buseForm\b[^}]*\}\s*from\s*["']react-hook-form["']/.test(text)) {
    found.push("calls react-hook-form's useForm itself: use useContractForm (lib/contract-form.ts)");
  }
  if (feature && imports(text, "@radix-ui/react-dialog")) {
    found.push("builds its own modal: use DialogShell, FormDialog or ConfirmDialog (components/ui)");
  }
  return found;
}

/** Strongly connected components of more than one node (Tarjan), each sorted, in a stable order. */
function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const members = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1) found.push(members.sort().join(" <-> "));
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort();
}

const addEdge = (graph, from, to) => {
  if (from === to) return;
  const set = graph.get(from) ?? new Set();
  set.add(to);
  graph.set(from, set);
};
const fileGraph = new Map();
const moduleGraph = new Map();
const MODULES = "apps/api/src/modules/";
const isTypeOnly = (statement) => /^\s*(import|export)\s+type\s/.test(statement);

/** The file an import names, with its extension as written (the repository imports with .ts / .tsx). */
const sourceFile = (target) => (existsSync(path.join(ROOT, target)) ? target : null);

const found = [];
for (const top of ["packages", "apps"]) {
  for (const file of files(path.join(ROOT, top))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (!spec) continue;
      const widget = widgetProblem(rel(file), spec);
      if (widget) found.push(`${rel(file)}: ${spec}: ${widget}`);
      if (!spec.startsWith(".")) continue;
      const target = rel(path.resolve(path.dirname(file), spec));
      const from = rel(file);
      if (!isTest(from) && !isTypeOnly(match[0]) && sourceFile(target)) {
        addEdge(fileGraph, from, target);
        if (from.startsWith(MODULES) && target.startsWith(MODULES)) {
          addEdge(moduleGraph, from.slice(MODULES.length).split("/")[0], target.slice(MODULES.length).split("/")[0]);
        }
      }
      const why = problem(rel(file), target) ?? tablesProblem(rel(file), target);
      if (why) found.push(`${rel(file)}: ${spec}: ${why}`);
    }
    for (const why of rawSqlProblems(rel(file), text)) found.push(`${rel(file)}: ${why}`);
    for (const why of oneWayProblems(rel(file), text)) found.push(`${rel(file)}: ${why}`);
    for (const why of transactionProblems(rel(file), text)) found.push(`${rel(file)}: ${why}`);
    for (const why of routeTableProblems(rel(file), text)) found.push(`${rel(file)}: ${why}`);
  }
}

/** Module imports on a cycle: a -> b where b reaches a again. */
function cyclicEdges(graph) {
  const edges = [];
  for (const component of cycles(graph)) {
    const members = new Set(component.split(" <-> "));
    for (const from of members)
      for (const to of graph.get(from) ?? []) if (members.has(to)) edges.push(`${from} -> ${to}`);
  }
  return edges.sort();
}

const seen = [...cyclicEdges(moduleGraph).map((e) => `modules ${e}`), ...cycles(fileGraph).map((c) => `files ${c}`)];
for (const cycle of seen) found.push(`import cycle: ${cycle}`);

if (found.length > 0) {
  console.error(`${found.length} use(s) cross a boundary (ARCHITECTURE.md, "Boundaries"):\n${found.join("\n")}`);
  process.exit(1);
}
console.log("Boundaries: every import and every raw statement keeps to its side.");
