/// <reference path="../../types/wink-porter2-stemmer.d.ts" />
import stemWord from "wink-porter2-stemmer";

/**
 * Words that say how a question is asked rather than what it is about. Retrieval ignores them: "how do I return an
 * item" and "return item" ask the same thing. Negations and question words that change the topic ("not", "when")
 * are kept deliberately out of this list only where they carry meaning for support questions.
 */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are aren't as at be because been before being below between " +
    "both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from " +
    "further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his " +
    "how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my myself no nor " +
    "of off on once only or other ought our ours ourselves out over own same shan't she she'd she'll she's should " +
    "shouldn't so some such than that that's the their theirs them themselves then there there's these they they'd " +
    "they'll they're they've this those through to too under until up very was wasn't we we'd we'll we're we've were " +
    "weren't what what's when when's where where's which while who who's whom why why's with won't would wouldn't you " +
    "you'd you'll you're you've your yours yourself yourselves please hi hello hey thanks thank just also get got " +
    "tell know want wanted need like would could can may might im ive id dont cant wont whats hows"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Lower-case words of a text, apostrophes normalised ("Don’t" -> "don't"), Unicode compatibility-folded. */
export function words(text: string): string[] {
  return (text.normalize("NFKC").toLowerCase().match(WORD) ?? []).map((w) => w.replaceAll("’", "'"));
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

const stems = new Map<string, string>();

/** Porter2 stem, memoised: a help desk's vocabulary is small and repeats constantly. */
export function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stemWord(word.replaceAll("'", ""));
    if (stems.size > 200_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/** The words that say what a text is about: not stop words, not single letters (digits stay: "401k", "2"). */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
}

/**
 * Irregular forms of common English verbs (and a few nouns), each to its base form: the stemmer leaves "paid",
 * "spent", "frozen" and "stolen" apart from "pay", "spend", "freeze" and "steal", so "I paid my bill" and "pay my
 * bill" shared no word. Forms that are also common words of their own ("left", "found", "saw", "lay") are left out.
 * Written as base:form,form;...
 */
const IRREGULAR = new Map<string, string>();
for (const entry of (
  "be:was,were,been;become:became;begin:began,begun;bend:bent;bet:bet;bite:bitten;bleed:bled;blow:blew,blown;" +
  "break:broke,broken;bring:brought;build:built;burn:burnt;buy:bought;catch:caught;choose:chose,chosen;come:came;" +
  "cost:cost;cut:cut;deal:dealt;dig:dug;do:did,done;draw:drew,drawn;drink:drank,drunk;drive:drove,driven;" +
  "eat:ate,eaten;fall:fallen;feed:fed;feel:felt;fight:fought;fly:flew,flown;forget:forgot,forgotten;" +
  "forgive:forgave,forgiven;freeze:froze,frozen;get:got,gotten;give:gave,given;go:went,gone;grow:grew,grown;" +
  "hang:hung;have:had;hear:heard;hide:hid,hidden;hit:hit;hold:held;hurt:hurt;keep:kept;know:knew,known;" +
  "lend:lent;lose:lost;make:made;mean:meant;meet:met;pay:paid;prove:proven;" +
  "ride:rode,ridden;ring:rang,rung;rise:risen;run:ran;say:said;see:seen;seek:sought;sell:sold;" +
  "send:sent;set:set;shake:shook,shaken;shoot:shot;show:shown;shrink:shrank,shrunk;shut:shut;sing:sang,sung;" +
  "sink:sank,sunk;sit:sat;sleep:slept;slide:slid;speak:spoke,spoken;spend:spent;split:split;spread:spread;" +
  "stand:stood;steal:stole,stolen;stick:stuck;sting:stung;strike:struck;swear:swore,sworn;swim:swam,swum;" +
  "take:took,taken;teach:taught;tear:tore,torn;tell:told;think:thought;throw:threw,thrown;" +
  "understand:understood;wake:woke,woken;wear:wore,worn;win:won;withdraw:withdrew,withdrawn;write:wrote,written;" +
  "child:children;person:people;man:men;woman:women;foot:feet;tooth:teeth;mouse:mice"
).split(";")) {
  const [base, forms] = entry.split(":");
  for (const form of forms?.split(",") ?? []) if (base && form !== base) IRREGULAR.set(form, base);
}

/** The base form of an irregular inflection ("paid" -> "pay"), or the word itself. */
export function baseForm(word: string): string {
  return IRREGULAR.get(word) ?? word;
}
