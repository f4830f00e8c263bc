import type { KbArticle } from "../../src/modules/ai/retrieval.ts";

/** A small, realistic knowledge base of an outdoor-gear shop, as an organization would write it. */
export const SHOP_ARTICLES: Omit<KbArticle, "id">[] = [
  {
    title: "How to return an item",
    slug: "return-an-item",
    questions: ["Can I send something back?", "What is your return policy?", "I want a refund for my order"],
    body: [
      "# Returns",
      "",
      "You can return unused items within 30 days of delivery for a full refund.",
      "",
      "To start a return:",
      "",
      "1. Sign in and open **Orders**.",
      "2. Choose the item and select *Return item*.",
      "3. Print the prepaid label and drop the parcel at any post office.",
      "",
      "## Refund timing",
      "",
      "Refunds reach your original payment method within 5 business days after the parcel arrives at our warehouse.",
    ].join("\n"),
  },
  {
    title: "Tracking your order",
    slug: "track-your-order",
    questions: ["Where is my order?", "My package has not arrived", "How can I see the delivery status?"],
    body: [
      "Every order gets a tracking number by email as soon as it ships.",
      "",
      "Open **Orders** in your account and select *Track parcel* to see where it is. Most parcels arrive within 3 to 5 business days.",
      "",
      "If tracking has not changed for 7 days, contact us and we will open an investigation with the carrier.",
    ].join("\n"),
  },
  {
    title: "Resetting your password",
    slug: "reset-your-password",
    questions: ["I forgot my password", "How do I change my password?", "I can't sign in"],
    body: [
      "On the sign-in page, select **Forgot your password?** and enter your email address.",
      "",
      "We email you a link that works for one hour. Open it and choose a new password of at least 8 characters.",
    ].join("\n"),
  },
  {
    title: "International shipping",
    slug: "international-shipping",
    questions: ["Do you ship internationally?", "Can you deliver to Canada?", "Shipping outside the US"],
    body: [
      "We ship to the United States, Canada, the United Kingdom and most of the European Union.",
      "",
      "International orders take 7 to 14 business days. Import duties and taxes are collected by the carrier on delivery.",
    ].join("\n"),
  },
  {
    title: "Updating your billing details",
    slug: "billing-details",
    questions: ["How do I change my credit card?", "Update payment method", "My card was declined"],
    body: [
      "Go to **Account** then **Billing** and select *Edit payment method* to add a new card.",
      "",
      "If a payment is declined, check that the billing address matches your card statement, then try again.",
    ].join("\n"),
  },
];

/**
 * The same shop's e-bike rental article, written as a small business writes one: it opens with a friendly, generic
 * sentence, and the facts customers ask about (prices, the deposit, where to pick the bike up) come further down, in
 * a price list and in paragraphs under headings. Kept apart from SHOP_ARTICLES, whose five articles other tests and
 * the benchmark's earlier figures rely on.
 */
export const SHOP_RENTALS: Omit<KbArticle, "id"> = {
  title: "E-bike rentals",
  slug: "e-bike-rentals",
  questions: ["Do you rent e-bikes?", "Can I hire an electric bike?", "Do you have bikes for rent?"],
  body: [
    "Yes! We rent e-bikes by the day or the weekend. It's the easiest way to see the valley trails without the climb.",
    "",
    "## Prices",
    "",
    "Prices are per bike, helmet and lock included:",
    "",
    "- Half day (up to 4 hours): $40",
    "- Full day: $65",
    "- Weekend (Friday 4 pm to Monday 10 am): $110",
    "",
    "We hold a $250 deposit on your card and release it when the bike comes back undamaged.",
    "",
    "## Picking up your bike",
    "",
    "Pick-up and drop-off are at our Riverside store, 12 Mill Street, between 9 am and 6 pm. Bring a photo ID and the card you booked with. Riders must be 16 or older.",
    "",
    "## Booking and cancelling",
    "",
    "Book online or call the store. Summer weekends sell out, so book at least a week ahead. You can cancel for free up to 48 hours before pick-up.",
  ].join("\n"),
};

/**
 * Questions a customer of that shop asks, each with the index of the article that answers it and the fact a right
 * answer must contain (a number of days, a place, the button to press), written in the customers' words rather than
 * the articles'. The in-process benchmark (bench/ai-eval.ts) asks them of the knowledge base with and without its
 * example questions: a small business's knowledge base beside CLINC150.
 */
export const SHOP_QUESTIONS: [question: string, article: number, fact: string][] = [
  ["How long does a refund take to reach my card?", 0, "5 business days"],
  ["can i send back a jacket i bought last week", 0, "within 30 days"],
  ["The boots don't fit, what now?", 0, "within 30 days"],
  ["Do I have to pay for return shipping?", 0, "prepaid label"],
  ["how many days do I have to return something", 0, "30 days"],
  ["When will I get my money back?", 0, "5 business days"],
  ["I changed my mind about my purchase", 0, "within 30 days"],
  ["Where do I get a return label?", 0, "prepaid label"],
  ["My parcel hasn't moved in a week", 1, "investigation"],
  ["how do i track my package", 1, "Track parcel"],
  ["When will my order arrive?", 1, "3 to 5 business days"],
  ["I never received my tent", 1, "investigation"],
  ["Has my order shipped yet?", 1, "tracking number by email"],
  ["where can I find the tracking number", 1, "by email"],
  ["delivery is late", 1, "7 days"],
  ["I can't log in", 2, "Forgot your password?"],
  ["forgot login details", 2, "Forgot your password?"],
  ["The reset link expired", 2, "one hour"],
  ["how to change password", 2, "Forgot your password?"],
  ["I'm locked out of my account", 2, "Forgot your password?"],
  ["didn't get the password email", 2, "Forgot your password?"],
  ["Do you ship to Australia?", 3, "We ship to the United States"],
  ["Will I pay customs fees?", 3, "Import duties and taxes"],
  ["How long does delivery to the UK take?", 3, "7 to 14 business days"],
  ["Can I order from France?", 3, "European Union"],
  ["When will my parcel arrive if I live in Canada?", 3, "7 to 14 business days"],
  ["do you deliver to germany?", 3, "European Union"],
  ["import taxes on orders abroad", 3, "collected by the carrier"],
  ["my card got declined", 4, "billing address matches"],
  ["How do I change the card on my account?", 4, "Edit payment method"],
  ["update my billing address", 4, "Account then Billing"],
  ["Payment failed at checkout", 4, "billing address matches"],
  ["can I pay with a different card", 4, "add a new card"],
  ["remove my old credit card", 4, "Edit payment method"],
];

/** Questions about the e-bike rentals (asked of SHOP_ARTICLES with SHOP_RENTALS), each with the fact it asks for. */
export const RENTAL_QUESTIONS: [question: string, fact: string][] = [
  ["How much is a weekend e-bike rental?", "$110"],
  ["what does it cost to rent an ebike for a full day", "$65"],
  ["Is there a deposit on the bikes?", "$250"],
  ["Where do I pick up the rental bike?", "12 Mill Street"],
  ["How old do you have to be to ride one of your e-bikes?", "16 or older"],
  ["Can I cancel a bike booking?", "48 hours"],
  ["What should I bring when I collect the bike?", "photo ID"],
  ["How far ahead should I book a bike for a summer weekend?", "a week ahead"],
];
