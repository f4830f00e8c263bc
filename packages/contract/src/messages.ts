import { z } from "zod";

/**
 * The words of every validation message no schema wrote itself. zod's own ("Invalid input: expected boolean, received
 * string") are for developers; a person filling in a form, or reading an API answer, gets "Remember me must be true or
 * false": the field by its label, and what it must be. Schemas that say something better keep their own message (a
 * schema's message outranks this map); this only fills the gaps, in one place, for the API and the web app alike.
 */

/** Labels of fields whose name does not read as words on its own; any other name is spelled out from its parts. */
const LABELS: Record<string, string> = {
  rememberMe: "Remember me",
  avatarUrl: "The picture",
  currentPassword: "Current password",
  newPassword: "New password",
  organizationName: "Company name",
  is_public: "is_public",
  assignee_id: "assignee_id",
  category_id: "category_id",
  handoff_threshold: "The hand-off threshold",
  customerInfo: "Customer info",
  questions: "Alternative phrasings",
  q: "Search",
  helpful: "helpful",
};

/** "requester_email" -> "Requester email", "firstName" -> "First name". */
function spelledOut(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The label of the field an issue is about: its last named key, and "An item of <field>" inside a list. */
function labelOf(path: readonly PropertyKey[] | undefined): string {
  const keys = path ?? [];
  const last = keys.at(-1);
  const named = [...keys].reverse().find((k): k is string => typeof k === "string");
  if (named === undefined) return typeof last === "number" ? "Each item" : "The request body";
  const label = LABELS[named] ?? spelledOut(named);
  return typeof last === "number" ? `Each item of ${label.charAt(0).toLowerCase()}${label.slice(1)}` : label;
}

/** What a value of a type is, said to a person. */
const KINDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  date: "a date",
  null: "empty (null)",
};

const FORMATS: Record<string, string> = {
  email: "a valid email address",
  uuid: "an id",
  guid: "an id",
  url: "a URL",
  datetime: "a date and time (ISO 8601)",
  date: "a date (YYYY-MM-DD)",
};

const UNITS: Record<string, [string, string]> = {
  string: ["character", "characters"],
  array: ["item", "items"],
  set: ["item", "items"],
};

function count(n: number | bigint, origin: string): string {
  const unit = UNITS[origin];
  if (!unit) return n.toLocaleString("en-US");
  return `${n.toLocaleString("en-US")} ${Number(n) === 1 ? unit[0] : unit[1]}`;
}

const shown = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** zod's issue turned into "<Field label> must be ..." (or "... is not valid" where nothing better can be said). */
export function humanMessage(issue: z.core.$ZodRawIssue): string {
  const label = labelOf(issue.path);
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return `${label} is required`;
      if (label === "The request body" && issue.expected === "object") return "Send the request body as a JSON object";
      return `${label} must be ${KINDS[issue.expected] ?? issue.expected}`;
    }
    case "too_big": {
      const origin = String(issue.origin ?? "");
      const bound = count(issue.maximum, origin);
      if (origin === "string" || origin === "array" || origin === "set") return `${label} must have at most ${bound}`;
      return `${label} must be at most ${bound}`;
    }
    case "too_small": {
      const origin = String(issue.origin ?? "");
      if ((origin === "string" || origin === "array") && Number(issue.minimum) === 1) {
        return origin === "string" ? `${label} is required` : `${label} must have at least one item`;
      }
      const bound = count(issue.minimum, origin);
      if (origin === "string" || origin === "array" || origin === "set") return `${label} must have at least ${bound}`;
      return `${label} must be at least ${bound}`;
    }
    case "invalid_format":
      return `${label} must be ${FORMATS[issue.format] ?? `in the ${issue.format} format`}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `${label} must be ${shown(issue.values[0])}`
        : `${label} must be one of ${issue.values.map(shown).join(", ")}`;
    case "not_multiple_of":
      return `${label} must be a multiple of ${String(issue.divisor)}`;
    case "unrecognized_keys":
      return `${label} has fields this request does not take: ${issue.keys.join(", ")}`;
    default:
      return `${label} is not valid`;
  }
}

z.config({ customError: humanMessage });

/**
 * The type error of a required text field: "<label> is required" when it is missing, "<label> must be text" when it
 * is something else (a number, a list).
 */
export const textRequired =
  (label: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`;
