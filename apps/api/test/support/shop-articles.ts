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
 * Questions a customer of that shop asks, each with the index of the article that answers it, written in the
 * customers' words rather than the articles'. The in-process benchmark (bench/ai-eval.ts) asks them of the
 * knowledge base with and without its example questions: a small business's knowledge base beside CLINC150.
 */
export const SHOP_QUESTIONS: [question: string, article: number][] = [
  ["How long does a refund take to reach my card?", 0],
  ["can i send back a jacket i bought last week", 0],
  ["The boots don't fit, what now?", 0],
  ["Do I have to pay for return shipping?", 0],
  ["how many days do I have to return something", 0],
  ["When will I get my money back?", 0],
  ["I changed my mind about my purchase", 0],
  ["Where do I get a return label?", 0],
  ["My parcel hasn't moved in a week", 1],
  ["how do i track my package", 1],
  ["When will my order arrive?", 1],
  ["I never received my tent", 1],
  ["Has my order shipped yet?", 1],
  ["where can I find the tracking number", 1],
  ["delivery is late", 1],
  ["I can't log in", 2],
  ["forgot login details", 2],
  ["The reset link expired", 2],
  ["how to change password", 2],
  ["I'm locked out of my account", 2],
  ["didn't get the password email", 2],
  ["Do you ship to Australia?", 3],
  ["Will I pay customs fees?", 3],
  ["How long does delivery to the UK take?", 3],
  ["Can I order from France?", 3],
  ["When will my parcel arrive if I live in Canada?", 3],
  ["do you deliver to germany?", 3],
  ["import taxes on orders abroad", 3],
  ["my card got declined", 4],
  ["How do I change the card on my account?", 4],
  ["update my billing address", 4],
  ["Payment failed at checkout", 4],
  ["can I pay with a different card", 4],
  ["remove my old credit card", 4],
];
