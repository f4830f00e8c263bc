#!/usr/bin/env node
// The folder rules of ARCHITECTURE.md, checked on every import so they hold without anyone remembering them:
//  1. packages/* never import from apps/*;
//  2. the API's platform/ knows no module (modules build on the platform, never the other way round);
//  3. a web feature reaches another feature only through that feature's index.ts (what it deliberately exports), and
//     the web's shared folders (lib/, components/) import no feature at all. Tests may use another feature's test/
//     fixtures. The composition root (app/, pages/) wires features together and may import any of them;
//  4. an API module reads and writes its own tables (db/schema/<module>.ts) and the core ones every module is scoped
//     by (organizations, users); another module's tables it reaches through that module's functions, which take the
//     caller's transaction.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

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
  const web = "apps/web/src/";
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

const found = [];
for (const top of ["packages", "apps"]) {
  for (const file of files(path.join(ROOT, top))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec?.startsWith(".")) continue;
      const target = rel(path.resolve(path.dirname(file), spec));
      const why = problem(rel(file), target) ?? tablesProblem(rel(file), target);
      if (why) found.push(`${rel(file)}: ${spec}: ${why}`);
    }
  }
}

if (found.length > 0) {
  console.error(`${found.length} import(s) cross a boundary (ARCHITECTURE.md, "Boundaries"):\n${found.join("\n")}`);
  process.exit(1);
}
console.log("Boundaries: every import keeps to its side.");
