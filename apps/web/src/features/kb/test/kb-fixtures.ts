import type { Article, ArticleSummary, Category, HelpArticleAnswer, HelpCenterAnswer } from "@cove/contract/kb.ts";
import { type PageOf, paginationOf } from "../../../test/pagination.ts";

let n = 0;
/** A fresh, valid uuid per call, so lists of fixtures never share ids. */
export function uuid(): string {
  n += 1;
  return `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;
}

export function category(overrides: Partial<Category> = {}): Category {
  return {
    id: uuid(),
    name: "Shipping & Delivery",
    slug: "shipping-and-delivery",
    position: 0,
    article_count: 3,
    published_count: 2,
    ...overrides,
  };
}

export function articleSummary(overrides: Partial<ArticleSummary> = {}): ArticleSummary {
  return {
    id: uuid(),
    title: "Do you ship internationally?",
    slug: "do-you-ship-internationally",
    status: "published",
    category_id: null,
    category_name: null,
    view_count: 302,
    helpful_count: 71,
    not_helpful_count: 4,
    author_name: "Ada Lovelace",
    created_at: "2026-03-02T09:15:00.000Z",
    updated_at: "2026-03-04T10:30:00.000Z",
    published_at: "2026-03-02T09:15:00.000Z",
    ...overrides,
  };
}

export function article(overrides: Partial<Article> = {}): Article {
  return {
    ...articleSummary(overrides),
    body: "We ship to **Canada** and the EU.\n\n## Times\n\n7-14 business days.",
    questions: ["Do you ship to Canada?"],
    ...overrides,
  };
}

export function listAnswer(articles: ArticleSummary[], pagination: PageOf = {}) {
  return { articles, pagination: paginationOf(articles.length, 20, pagination) };
}

export const helpCenter: HelpCenterAnswer = {
  organization: { name: "Acme Outdoor Co.", slug: "acme" },
  categories: [
    {
      id: uuid(),
      name: "Shipping & Delivery",
      slug: "shipping-and-delivery",
      articles: [
        { id: uuid(), title: "Do you ship internationally?", slug: "do-you-ship-internationally" },
        { id: uuid(), title: "Where is my order?", slug: "where-is-my-order" },
      ],
    },
  ],
  uncategorized: [{ id: uuid(), title: "About us", slug: "about-us" }],
};

export function helpArticle(overrides: Partial<HelpArticleAnswer["article"]> = {}): HelpArticleAnswer {
  return {
    organization: helpCenter.organization,
    article: {
      id: uuid(),
      title: "Do you ship internationally?",
      slug: "do-you-ship-internationally",
      body: "We ship to **Canada**.\n\n<script>alert(1)</script>\n\n[Bad](javascript:alert(1))",
      category: { name: "Shipping & Delivery", slug: "shipping-and-delivery" },
      updated_at: "2026-03-04T10:30:00.000Z",
      attachments: [],
      ...overrides,
    },
    related: [{ id: uuid(), title: "Where is my order?", slug: "where-is-my-order" }],
  };
}
