import type { Attachment } from "@cove/contract/attachments.ts";
import type { Article, HelpArticleAnswer } from "@cove/contract/kb.ts";
import { describe, expect, it } from "vitest";
import { addMember, client, naughtySample, type Org, orgForFile, testAppForFile } from "../helpers.ts";
import { PNG, SMALL_LIMITS, uploader } from "../support/files.ts";

const t = testAppForFile({ attachmentLimits: SMALL_LIMITS });
const shop = orgForFile(t);
const other = orgForFile(t);

const call = client(() => t.app, { newAddressEachCall: true });

const upload = uploader(() => t.app);
const attach = (token: string, articleId: string, filename: string, bytes: Buffer) =>
  upload(token, `/api/kb/articles/${articleId}/files`, filename, bytes);

let articles = 0;
async function draft(org: Org) {
  const res = await call(org.token, "POST", "/api/kb/articles", { title: `Returns ${++articles}`, body: "How to." });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().article as Article;
}

const publicArticle = (org: Org, article: Article) =>
  `/api/public/${org.user.organizationSlug}/kb/articles/${article.slug}`;

describe("files on knowledge-base articles", () => {
  it("staff attach files to a draft; they are public only once the article is published", async () => {
    const article = await draft(shop);
    const res = await attach(shop.token, article.id, "label.png", PNG);
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json().attachment as Attachment;
    expect(file).toMatchObject({ filename: "label.png", content_type: "image/png" });

    // An agent, not only the admin who wrote it, sees the draft's file.
    const agent = await addMember(t.database, shop.user.organizationId);
    const staff = (await call(agent.token, "GET", `/api/kb/articles/${article.id}`)).json().article as Article;
    expect(staff.attachments?.map((a) => a.id)).toEqual([file.id]);
    const staffFile = await call(agent.token, "GET", `/api/kb/articles/${article.id}/files/${file.id}`);
    expect(staffFile.statusCode).toBe(200);
    expect(staffFile.headers["content-disposition"]).toMatch(/^inline;/);

    // A draft is not in the help center, nor are its files.
    expect((await call(null, "GET", `${publicArticle(shop, article)}/files/${file.id}`)).statusCode).toBe(404);

    expect((await call(shop.token, "PUT", `/api/kb/articles/${article.id}`, { status: "published" })).statusCode).toBe(
      200,
    );
    const help = (await call(null, "GET", publicArticle(shop, article))).json() as HelpArticleAnswer;
    expect(help.article.attachments.map((a) => a.filename)).toEqual(["label.png"]);
    const open = await call(null, "GET", `${publicArticle(shop, article)}/files/${file.id}`);
    expect(open.statusCode).toBe(200);
    expect(open.headers["content-type"]).toBe("image/png");
    expect(open.rawPayload.equals(PNG)).toBe(true);

    // Unpublished again: gone from the public side at once.
    await call(shop.token, "PUT", `/api/kb/articles/${article.id}`, { status: "draft" });
    expect((await call(null, "GET", `${publicArticle(shop, article)}/files/${file.id}`)).statusCode).toBe(404);
  });

  it("never serves an article's file across organizations (404)", async () => {
    const article = await draft(shop);
    const file = (await attach(shop.token, article.id, "plan.pdf", Buffer.from("%PDF-1.4 plan"))).json()
      .attachment as Attachment;
    await call(shop.token, "PUT", `/api/kb/articles/${article.id}`, { status: "published" });

    const theirs = await call(other.token, "GET", `/api/kb/articles/${article.id}/files/${file.id}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe("NOT_FOUND");
    expect((await attach(other.token, article.id, "x.png", PNG)).statusCode).toBe(404);
    expect((await call(other.token, "DELETE", `/api/kb/articles/${article.id}/files/${file.id}`)).statusCode).toBe(404);
    // Through another organization's help center, with the same article address and file id.
    const otherHelp = `/api/public/${other.user.organizationSlug}/kb/articles/${article.slug}/files/${file.id}`;
    expect((await call(null, "GET", otherHelp)).statusCode).toBe(404);
    // A download, not a page: a PDF is never shown inline.
    const pdf = await call(null, "GET", `${publicArticle(shop, article)}/files/${file.id}`);
    expect(pdf.headers["content-disposition"]).toMatch(/^attachment;/);
    expect(pdf.headers["x-content-type-options"]).toBe("nosniff");
    expect((await call(null, "GET", `/api/kb/articles/${article.id}/files/${file.id}`)).statusCode).toBe(401);
  });

  it("removes a file, holds the limits, and keeps naughty names as text", async () => {
    const article = await draft(shop);
    const names = naughtySample().slice(0, 3);
    const files: Attachment[] = [];
    for (const name of names) {
      const res = await attach(shop.token, article.id, name, Buffer.from("x"));
      expect(res.statusCode, res.body).toBe(201);
      const file = res.json().attachment as Attachment;
      expect(file.filename).not.toMatch(/[\\/"]|\p{Cc}/u);
      files.push(file);
    }
    const fourth = await attach(shop.token, article.id, "four.txt", Buffer.from("x"));
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().error).toBe("An article can have at most 3 files.");
    const big = await attach(shop.token, article.id, "big.bin", Buffer.alloc(4097, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe("The file is too large: a file can be at most 4 KB.");

    const removed = await call(shop.token, "DELETE", `/api/kb/articles/${article.id}/files/${files[0]?.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await call(shop.token, "DELETE", `/api/kb/articles/${article.id}/files/${files[0]?.id}`)).statusCode).toBe(
      404,
    );
    await call(shop.token, "DELETE", `/api/kb/articles/${article.id}/files/${files[1]?.id}`);
    const two = await attach(shop.token, article.id, "a.bin", Buffer.alloc(4000, 1));
    expect(two.statusCode).toBe(201);
    const over = await attach(shop.token, article.id, "b.bin", Buffer.alloc(4000, 1));
    expect(over.statusCode).toBe(400);
    expect(over.json().error).toBe("The files of one article can be at most 6 KB together.");
    const left = (await call(shop.token, "GET", `/api/kb/articles/${article.id}`)).json().article as Article;
    expect(left.attachments?.map((a) => a.filename)).toEqual([files[2]?.filename, "a.bin"]);
  });
});
