/**
 * CLINC150 (../shared/data/clinc150, Larson et al. 2019, CC BY 3.0) as help-desk knowledge bases: each of its 10
 * domains becomes an organization with one article per intent. An article is written from the intent's name alone
 * (title and body); its alternative phrasings come from the train split only. Thresholds and calibration are chosen
 * on val; test is only ever measured.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLINC_DIR = process.env.CLINC_DIR || path.resolve(here, "../../shared/data/clinc150");

export type Split = "train" | "val" | "test" | "oos_train" | "oos_val" | "oos_test";
type Pair = [text: string, intent: string];

export interface Clinc {
  splits: Record<Split, Pair[]>;
  domains: Record<string, string[]>;
}

export function loadClinc(dir = CLINC_DIR): Clinc {
  const splits = JSON.parse(readFileSync(path.join(dir, "data_full.json"), "utf8")) as Record<Split, Pair[]>;
  const domains = JSON.parse(readFileSync(path.join(dir, "domains.json"), "utf8")) as Record<string, string[]>;
  return { splits, domains };
}

export interface BenchArticle {
  intent: string;
  title: string;
  slug: string;
  body: string;
  questions: string[];
}

const words = (intent: string) => intent.replaceAll("_", " ");
const sentenceCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The articles of one domain. `phrasings` caps the alternative phrasings per article (the first ones of train), to
 * measure knowledge bases whose authors wrote only a few.
 */
export function domainArticles(clinc: Clinc, domain: string, phrasings = Number.POSITIVE_INFINITY): BenchArticle[] {
  const intents = clinc.domains[domain] ?? [];
  return intents.map((intent) => {
    const name = words(intent);
    return {
      intent,
      title: sentenceCase(name),
      slug: intent.replaceAll("_", "-"),
      body: `# ${sentenceCase(name)}\n\nThis article is about ${name}. It explains ${name} and what to do about ${name}.`,
      questions: clinc.splits.train
        .filter(([, i]) => i === intent)
        .map(([q]) => q)
        .slice(0, phrasings),
    };
  });
}

/** The in-scope questions of a split that belong to a domain's intents. */
export function domainQuestions(clinc: Clinc, domain: string, split: "val" | "test"): Pair[] {
  const intents = new Set(clinc.domains[domain] ?? []);
  return clinc.splits[split].filter(([, intent]) => intents.has(intent));
}
