/**
 * What kind of fact a question asks for, and whether a sentence states one. "How much is a weekend rental?" asks for
 * a price, and the sentence that answers it is the one with "$110", however many of the question's other words the
 * article's friendly opening ("We rent e-bikes by the day or the weekend") shares. Retrieval's word and meaning
 * scores cannot see that "how much" is answered by an amount; this says it, for choosing which passage of the
 * chosen article an answer quotes (never for choosing the article, nor for its confidence).
 *
 * Deliberately narrow: a question matches a kind only by its question words ("how much", "how long", "how old",
 * "where"), and a sentence states one only in a form that cannot be mistaken ("$40", "5 business days", "16 or
 * older", "12 Mill Street"). A question of no kind, or an article with no sentence of its kind, is answered by the
 * best-matching passage as before.
 */
export type FactKind = "price" | "time" | "age" | "place" | "number";

/** Checked in this order: "how many days" is a time, not a number; "how much does it cost" a price. */
const ASKS: [FactKind, RegExp][] = [
  ["age", /\bhow old\b|\b(?:minimum|age) (?:age|limit|requirement)\b|\bwhat age\b/],
  [
    "price",
    /\bhow much\b(?! (?:time|longer|notice))|\bcosts?\b|\bcosting\b|\bprice[sd]?\b|\bpricing\b|\bfees?\b|\brates?\b|\bexpensive\b|\bcheap(?:er|est)?\b/,
  ],
  [
    "time",
    /\bhow (?:long|soon|quickly|fast|far (?:ahead|in advance)|much (?:time|longer|notice))\b|^when\b|\b(?:until|by) when\b|\bwhen (?:will|do|does|did|is|are|can|could|should|would|am|was|were)\b|\bwhat time\b|\bwhat days?\b|\bwhich days?\b|\bhow many (?:business |working )?(?:minutes|hours|days|nights|weeks|months|years)\b|\bopening hours\b|\bdeadline\b/,
  ],
  ["place", /^where\b|\bwhere (?:do|does|did|is|are|can|could|should|would|will|am|was|were)\b/],
  ["number", /\bhow many\b/],
];

const NUMBER_WORD =
  "(?:\\d+(?:[.,]\\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|forty|sixty|ninety|a few|several|a couple of)";
const UNIT = "(?:minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?)";

const STATES: Record<FactKind, RegExp> = {
  price:
    /[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:USD|EUR|GBP|CAD|AUD|dollars?|euros?|pounds?|cents?)\b|\b(?:free of charge|for free|(?:is|are|it's) free|no charge|no extra cost|at no cost)\b/i,
  time: new RegExp(
    [
      // A span: "5 business days", "a week", "48 hours", "one to two weeks".
      `\\b${NUMBER_WORD}(?:\\s+(?:to|-|or)\\s+${NUMBER_WORD})?\\s+(?:(?:business|working|calendar|full)\\s+)?${UNIT}\\b`,
      `\\b\\d+\\s?(?:-|–|to)\\s?\\d+\\s+(?:(?:business|working)\\s+)?${UNIT}\\b`,
      // A time of day or a day of the week.
      "\\b\\d{1,2}(?::\\d{2})?\\s?(?:am|pm|a\\.m\\.|p\\.m\\.)",
      "\\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\\b",
      "\\b(?:the (?:next|same) (?:business |working )?day|same-day|overnight)\\b",
    ].join("|"),
    "i",
  ),
  age: /\b\d+\s?(?:\+|or (?:older|over)|and (?:older|over|up)|years? (?:old|of age))|\b(?:aged?|ages) \d+\b/i,
  // A street address ("12 Mill Street") or a named store, office or desk ("our Riverside store").
  place:
    /\b\d+[A-Za-z]?\s+(?:[A-Z][\w'-]*\s+){1,3}(?:Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Boulevard|Blvd\.?|Lane|Ln\.?|Drive|Dr\.?|Way|Square|Sq\.?|Place|Pl\.?|Plaza|Parkway|Highway|Hwy\.?)(?!\w)|\b(?:at|in|from) (?:our|the) (?:[A-Z][\w'-]*\s+){1,3}(?:store|shop|office|branch|warehouse|desk|counter|location)\b/,
  number: /\b\d+\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|fifty|hundred)\b/i,
};

/** The kind of fact a question asks for, or null when it asks for none in particular ("Do you rent e-bikes?"). */
export function askedFact(question: string): FactKind | null {
  const text = question.normalize("NFKC").toLowerCase().replaceAll("’", "'");
  for (const [kind, pattern] of ASKS) if (pattern.test(text)) return kind;
  return null;
}

/** Whether a text (a sentence, a list item, a table row: plain text, as asked) states a fact of the kind. */
export function statesFact(kind: FactKind, text: string): boolean {
  return STATES[kind].test(text.normalize("NFKC"));
}
