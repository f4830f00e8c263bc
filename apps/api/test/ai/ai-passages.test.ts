import { describe, expect, it } from "vitest";
import { askedFact, statesFact } from "../../src/modules/ai/asked-fact.ts";
import { findCandidates } from "../../src/modules/ai/candidates.ts";
import { excerpt, excerptAround, lineSentences, splitPassages } from "../../src/modules/ai/passages.ts";
import { buildIndex } from "../../src/modules/ai/retrieval.ts";
import { wordVectors } from "../../src/modules/ai/word-vectors.ts";
import { chatMarkdownHtml } from "../../src/platform/markdown.ts";
import { RENTAL_QUESTIONS, SHOP_ARTICLES, SHOP_RENTALS } from "../support/shop-articles.ts";

/** A returns article the way the demo shop writes it: a lead, a four-step list under a heading, more sections. */
const RETURNS = {
  id: "returns",
  title: "How do I return an item?",
  slug: "return-an-item",
  questions: ["What is your return policy?", "How do I send something back?"],
  body: [
    "You can return anything within **30 days of delivery** if it is **unused, in its original condition, with the tags on**.",
    "",
    "## Start a return",
    "",
    "1. Go to **My Account → Orders**, open the order and select **Return or exchange items**. Guest orders: use the **Returns** page in our website's footer with your order number and email address.",
    "2. Choose the items and a reason.",
    "3. In the US you get a **free prepaid return label** (print it or show the QR code at a UPS store). Drop the parcel off within **14 days** of creating the return.",
    "4. Pack the items in any sturdy box, with the packing slip if you still have it.",
    "",
    "## Returns from outside the US",
    "",
    "Start the return the same way. You send the parcel with a carrier of your choice and pay the postage.",
  ].join("\n"),
};

const SHIPPING = {
  id: "shipping",
  title: "Shipping options and costs",
  slug: "shipping",
  questions: ["How much is delivery?"],
  body: [
    "We ship every order from our warehouse in Denver, Colorado.",
    "",
    "## Prices",
    "",
    "What each option costs:",
    "",
    "| Option | Cost | Days |",
    "|---|---|---|",
    "| Standard | $5.95 | 3-5 |",
    "| Express | $14.95 | 1-2 |",
  ].join("\n"),
};

describe("passages are whole units", () => {
  it("keeps a table with its lead-in and header, and joins a paragraph's soft line breaks", () => {
    expect(splitPassages(SHIPPING.body)).toEqual([
      {
        heading: "",
        text: "We ship every order from our warehouse in Denver, Colorado.",
        markdown: "We ship every order from our warehouse in Denver, Colorado.",
      },
      {
        heading: "Prices",
        text: "What each option costs:\nOption, Cost, Days\nStandard, $5.95, 3-5\nExpress, $14.95, 1-2",
        markdown: [
          "What each option costs:",
          "| Option | Cost | Days |",
          "|---|---|---|",
          "| Standard | $5.95 | 3-5 |",
          "| Express | $14.95 | 1-2 |",
        ].join("\n"),
      },
    ]);
    expect(splitPassages("Our support team answers\nevery day of the week.")).toEqual([
      {
        heading: "",
        text: "Our support team answers every day of the week.",
        markdown: "Our support team answers every day of the week.",
      },
    ]);
    // A picture is quoted as its description: a chat answer shows no images.
    expect(splitPassages("See ![the label on the box](/files/label.png) **here**.")[0]?.markdown).toBe(
      "See the label on the box **here**.",
    );
  });

  it("starts a new passage where a table follows a paragraph without a lead-in", () => {
    const passages = splitPassages("Prices are in dollars.\n| Option | Cost |\n|---|---|\n| Standard | $5 |");
    expect(passages.map((p) => p.text)).toEqual(["Prices are in dollars.", "Option, Cost\nStandard, $5"]);
  });

  it("does not end a sentence at a list number, a time of day or an abbreviation", () => {
    expect(lineSentences("Open from 8 a.m. to noon. Call No. 5 today. See e.g. Orders.")).toEqual([
      "Open from 8 a.m. to noon.",
      "Call No. 5 today.",
      "See e.g. Orders.",
    ]);
    expect(lineSentences("Steps: 4. Pack the box.")).toEqual(["Steps: 4. Pack the box."]);
  });
});

describe("trimming a passage", () => {
  const list = "To start a return:\n1. Sign in to your account.\n2. Open Orders.\n3. Print the prepaid label.";

  it("keeps a unit that fits whole", () => {
    expect(excerpt(list, 500)).toBe(list);
  });

  it("cuts a list only between items, keeps its lead with the first item and says that more follows", () => {
    const cut = excerpt(list, 50);
    // "More follows" is a paragraph of its own, not a last line of the list's last item.
    expect(cut).toBe("To start a return:\n1. Sign in to your account.\n\n…");
    // Even a budget smaller than the lead keeps the lead and its first item together.
    expect(excerpt(list, 10)).toBe("To start a return:\n1. Sign in to your account.\n\n…");
  });

  it("cuts a table only between rows, never without its header", () => {
    const table = "| Option | Cost | Days |\n|---|---|---|\n| Standard | $5.95 | 3-5 |\n| Express | $14.95 | 1-2 |";
    expect(excerpt(table, 70)).toBe("| Option | Cost | Days |\n|---|---|---|\n| Standard | $5.95 | 3-5 |\n\n…");
    // The header and its |---| line are one unit, and never end a quote without a row.
    expect(excerpt(table, 10)).toBe("| Option | Cost | Days |\n|---|---|---|\n| Standard | $5.95 | 3-5 |\n\n…");
    const led = `What each option costs:\n${table}`;
    expect(excerpt(led, 30)).toBe(
      "What each option costs:\n| Option | Cost | Days |\n|---|---|---|\n| Standard | $5.95 | 3-5 |\n\n…",
    );
  });

  it("cuts a paragraph only after a whole sentence, and keeps a single long sentence whole", () => {
    const paragraph = `${"Refunds reach your card within five business days. ".repeat(10)}Ask us.`;
    const cut = excerpt(paragraph, 120);
    expect(cut).toBe(
      "Refunds reach your card within five business days. Refunds reach your card within five business days. …",
    );
    const sentence = `Refunds reach your card ${"and more ".repeat(30)}today.`;
    expect(excerpt(sentence, 50)).toBe(sentence);
  });
});

describe("the answer to a question", () => {
  const index = buildIndex([RETURNS, SHIPPING], wordVectors());

  it("quotes the whole list of steps with its heading, never ending after a list number", () => {
    const [best] = findCandidates(index, "shop", "How do I return an item?");
    expect(best?.title).toBe("How do I return an item?");
    const passage = best?.passage ?? "";
    // The steps answer "how do I": the answer is the list under its heading, not the article's opening.
    expect(passage).toMatch(/^Start a return:\n1\. Go to \*\*My Account → Orders\*\*/);
    expect(passage).toContain("4. Pack the items in any sturdy box, with the packing slip if you still have it.");
    expect(passage).not.toMatch(/\d\.\s*$/);
    expect(passage).not.toContain("carrier of your choice");
  });

  it("quotes a table with its header and lead-in", () => {
    const [best] = findCandidates(index, "shop", "What does express shipping cost?");
    expect(best?.title).toBe("Shipping options and costs");
    expect(best?.passage).toContain(
      "Prices:\nWhat each option costs:\n| Option | Cost | Days |\n|---|---|---|\n| Standard | $5.95 | 3-5 |\n| Express | $14.95 | 1-2 |",
    );
  });

  it("reads in the chat as the article does in the help center: a numbered list, a table, bold text", async () => {
    const steps = await chatMarkdownHtml(findCandidates(index, "shop", "How do I return an item?")[0]?.passage ?? "");
    expect(steps).toContain("<strong>My Account → Orders</strong>");
    expect(steps.match(/<li>/g)).toHaveLength(4);
    const prices = await chatMarkdownHtml(
      findCandidates(index, "shop", "What does express shipping cost?")[0]?.passage ?? "",
    );
    expect(prices).toMatch(/<th>Option<\/th>\s*<th>Cost<\/th>/);
    expect(prices).toMatch(/<td>Express<\/td>\s*<td>\$14\.95<\/td>/);
  });

  it("is not near certain of a question of one or two words, however well it matches a title", () => {
    for (const vague of ["item", "return item?", "help", "shipping costs"]) {
      const [best] = findCandidates(index, "shop", vague);
      expect(best?.confidence ?? 0, vague).toBeLessThan(0.97);
    }
    const [full] = findCandidates(index, "shop", "How do I return an item I bought last week?");
    expect(full?.confidence ?? 0).toBeGreaterThan(0.97);
  });
});

describe("the passage that answers what was asked", () => {
  // The shop's articles and its e-bike rentals article, which opens with a friendly sentence and gives its prices
  // further down, in a list.
  const shop = buildIndex(
    [...SHOP_ARTICLES, SHOP_RENTALS].map((a, i) => ({ ...a, id: `a${i}` })),
    wordVectors(),
  );

  it("quotes the price list for a price, not the article's opening", async () => {
    const [best] = findCandidates(shop, "shop", "How much is a weekend e-bike rental?");
    expect(best?.title).toBe("E-bike rentals");
    const passage = best?.passage ?? "";
    expect(passage).toContain("$110");
    expect(passage).not.toContain("We rent e-bikes by the day or the weekend");
    // The matched item is read and quoted with its list's lead-in and heading, as a list.
    expect(passage).toBe(
      [
        "Prices:",
        "Prices are per bike, helmet and lock included:",
        "- Half day (up to 4 hours): $40",
        "- Full day: $65",
        "- Weekend (Friday 4 pm to Monday 10 am): $110",
      ].join("\n"),
    );
    const html = await chatMarkdownHtml(passage);
    expect(html).toContain("<li>Weekend (Friday 4 pm to Monday 10 am): $110</li>");
  });

  it("quotes the fact each rental question asks for: a price, a deposit, a place, an age, a notice period", () => {
    for (const [question, fact] of RENTAL_QUESTIONS) {
      const [best] = findCandidates(shop, "shop", question);
      expect(best?.title, question).toBe("E-bike rentals");
      expect(best?.passage, question).toContain(fact);
    }
  });

  it("answers a follow-up's asked fact with the previous question's article", () => {
    const [best] = findCandidates(shop, "shop", "and how much is it for a weekend?", [
      { role: "user", content: "Do you rent e-bikes?" },
      { role: "assistant", content: "Yes! We rent e-bikes by the day or the weekend." },
    ]);
    expect(best?.title).toBe("E-bike rentals");
    expect(best?.passage).toContain("$110");
  });

  it("still quotes the opening when it is what matches a question that asks for no fact in particular", () => {
    const [best] = findCandidates(shop, "shop", "Do you rent e-bikes?");
    expect(best?.title).toBe("E-bike rentals");
    expect(best?.passage).toMatch(/^Yes! We rent e-bikes by the day or the weekend\./);
    expect(best?.passage).not.toContain("$");
  });

  it("quotes the article's lead before the matched passage when the lead matches nearly as well", () => {
    const [best] = findCandidates(shop, "shop", "How long does a refund take to reach my card?");
    expect(best?.passage).toBe(
      [
        "You can return unused items within 30 days of delivery for a full refund.",
        "",
        "Refund timing: Refunds reach your original payment method within 5 business days after the parcel arrives at our warehouse.",
      ].join("\n"),
    );
  });
});

describe("the kind of fact a question asks for", () => {
  it("is read from the question's words", () => {
    expect(askedFact("How much is a weekend e-bike rental?")).toBe("price");
    expect(askedFact("what does it cost to rent a bike")).toBe("price");
    expect(askedFact("How long does a refund take?")).toBe("time");
    expect(askedFact("When will my order arrive?")).toBe("time");
    expect(askedFact("how many days do I have to return something")).toBe("time");
    expect(askedFact("How far ahead should I book?")).toBe("time");
    expect(askedFact("How old do you have to be to ride?")).toBe("age");
    expect(askedFact("Where do I pick up the bike?")).toBe("place");
    expect(askedFact("How many bikes can I rent at once?")).toBe("number");
    // A question of no kind, and "when" that is not the question's word.
    expect(askedFact("Do you rent e-bikes?")).toBeNull();
    expect(askedFact("What happens to my order when my card is declined?")).toBeNull();
  });

  it("is stated only in forms that cannot be mistaken", () => {
    expect(statesFact("price", "Weekend (Friday 4 pm to Monday 10 am): $110")).toBe(true);
    expect(statesFact("price", "Returns cost 5 EUR.")).toBe(true);
    expect(statesFact("price", "Returns are free within the US.")).toBe(true);
    expect(statesFact("price", "Feel free to call us.")).toBe(false);
    expect(statesFact("price", "We rent e-bikes by the day or the weekend.")).toBe(false);
    expect(statesFact("time", "Refunds arrive within 5 business days.")).toBe(true);
    expect(statesFact("time", "International orders take 7 to 14 business days.")).toBe(true);
    expect(statesFact("time", "Summer weekends sell out, so book at least a week ahead.")).toBe(true);
    expect(statesFact("time", "Open 9 am to 6 pm, Monday to Saturday.")).toBe(true);
    expect(statesFact("time", "Every order gets a tracking number by email as soon as it ships.")).toBe(false);
    expect(statesFact("age", "Riders must be 16 or older.")).toBe(true);
    expect(statesFact("age", "Orders over 50 ship free.")).toBe(false);
    expect(statesFact("place", "Pick-up is at our Riverside store, 12 Mill Street.")).toBe(true);
    expect(statesFact("place", "Open the Orders page.")).toBe(false);
  });
});

describe("quoting a long passage where it answers", () => {
  const items = Array.from({ length: 30 }, (_, i) => `- Trail ${i + 1}: ${10 + i} km of gravel along the river`);
  const list = ["Our guided trails, each with its length:", ...items].join("\n");

  it("keeps a list's lead-in with the matched item and the ones beside it, and says that more follows", () => {
    const cut = excerptAround(list, "Trail 25: 34 km of gravel along the river", 300);
    expect(cut.length).toBeLessThan(320);
    expect(cut).toMatch(/^Our guided trails, each with its length:\n- Trail \d+:/);
    expect(cut).toContain("- Trail 25: 34 km of gravel along the river");
    expect(cut).not.toContain("- Trail 1:");
    expect(cut.endsWith("\n\n…")).toBe(true);
    // Whole items only.
    for (const line of cut.split("\n").slice(1, -2))
      expect(line).toMatch(/^- Trail \d+: \d+ km of gravel along the river$/);
  });

  it("keeps a table's header with the matched row", () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| Model ${i + 1} | $${100 + i} | ${i % 3} |`);
    const table = ["| Bike | Day | Stock |", "|---|---|---|", ...rows].join("\n");
    const cut = excerptAround(table, "Model 33, $132, 2", 200);
    expect(cut).toMatch(/^\| Bike \| Day \| Stock \|\n\|---\|---\|---\|\n\| Model \d+ \|/);
    expect(cut).toContain("| Model 33 | $132 | 2 |");
    expect(cut).not.toContain("| Model 1 |");
  });

  it("keeps the sentences around the matched one in a long paragraph, marking what is left out", () => {
    const paragraph = Array.from({ length: 12 }, (_, i) => `Rule ${i + 1} of the trail is to ride with care.`).join(
      " ",
    );
    const cut = excerptAround(paragraph, "Rule 8 of the trail is to ride with care.", 150);
    expect(cut).toContain("Rule 8 of the trail is to ride with care.");
    expect(cut.startsWith("… Rule")).toBe(true);
    expect(cut.endsWith(" …")).toBe(true);
    expect(cut).not.toContain("Rule 1 ");
  });

  it("cuts from the start as before when the matched sentence is not found", () => {
    expect(excerptAround(list, "nothing like it", 300)).toBe(excerpt(list, 300));
  });
});
