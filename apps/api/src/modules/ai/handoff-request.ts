/**
 * Recognises a customer asking for a person ("Can I talk to a person?", "agent please", "connect me with support").
 * Deliberately narrow: a verb of conversation next to a word for a person, or such a word alone. "Transfer money to
 * someone" or "are you a real person?" are questions for the knowledge base, not requests for a human.
 */
const PERSON =
  "(?:a |an |the |some |your |one of your )?(?:real |live |actual |human |other )?" +
  "(?:human(?: being)?|person|people|agent|representative|rep|operator|someone|somebody|staff(?: member)?|" +
  "team member|manager|supervisor|support(?: team| staff| agent)?|customer (?:service|support)(?: agent| rep(?:resentative)?| team)?)";
const SPEAK = "(?:talk|speak|chat|get in touch|be in touch)";

const PATTERNS = [
  new RegExp(`\\b${SPEAK} (?:to|with) ${PERSON}\\b`),
  new RegExp(
    `\\b(?:connect|transfer|put|pass|forward|escalate) (?:me|this|my (?:question|request|case)) (?:through )?(?:to|with) ${PERSON}\\b`,
  ),
  new RegExp(`\\b(?:get|give|find) me ${PERSON}\\b`),
  /\b(?:i (?:want|need|would like|'d like)|let me have|can i have|can i get) (?:a |an |to (?:talk|speak) (?:to|with) (?:a |an )?)?(?:real |live |actual )?(?:human|person|agent|representative|operator)\b/,
  /^(?:a |an )?(?:real |live )?(?:human|person|agent|representative|operator|customer service)(?: please| now| pls)?[.!?]*$/,
  /\b(?:not|no more|stop talking to) (?:a |an |the |this )?(?:bot|robot|machine|ai|assistant)\b.*\b(?:human|person|agent)\b/,
];

export function asksForPerson(message: string): boolean {
  const text = message.normalize("NFKC").toLowerCase().replaceAll("’", "'").replace(/\s+/g, " ").trim();
  return PATTERNS.some((p) => p.test(text));
}
