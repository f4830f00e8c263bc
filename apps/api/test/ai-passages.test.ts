import { describe, expect, it } from "vitest";
import { findCandidates } from "../src/modules/ai/candidates.ts";
import { excerpt, lineSentences, splitPassages } from "../src/modules/ai/passages.ts";
import { buildIndex } from "../src/modules/ai/retrieval.ts";
import { wordVectors } from "../src/modules/ai/word-vectors.ts";
import { chatMarkdownHtml } from "../src/platform/markdown.ts";

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
    expect(passage).toContain("You can return anything within **30 days of delivery**");
    expect(passage).toContain("Start a return:\n1. Go to **My Account → Orders**");
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
    expect(steps).toContain("<strong>30 days of delivery</strong>");
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
