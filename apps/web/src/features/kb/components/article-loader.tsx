import type { Article } from "@cove/contract/kb.ts";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { z } from "zod";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button, buttonClasses } from "../../../components/ui/button.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useArticle } from "../api/kb.queries.ts";
import { ArticleNotFound } from "./article-not-found.tsx";

const articleId = z.uuid();

/** Loads the article of the address and shows children with it, or the loading, error or not-found state. */
export function ArticleLoader({ id, children }: { id: string; children: (article: Article) => ReactNode }) {
  // An address that cannot be an article id is simply not found; no need to ask the server.
  if (!articleId.safeParse(id).success) return <ArticleNotFound />;
  return <Loaded id={id}>{children}</Loaded>;
}

function Loaded({ id, children }: { id: string; children: (article: Article) => ReactNode }) {
  const query = useArticle(id);
  if (query.isPending) {
    return (
      <div className="flex justify-center py-16 text-indigo-600">
        <Spinner className="size-6" label="Loading article" />
      </div>
    );
  }
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <ArticleNotFound />;
    return (
      <div className="space-y-4">
        <Alert>
          <p className="font-semibold">Error loading article</p>
          <p>{query.error.message}</p>
        </Alert>
        <div className="flex gap-3">
          <Button variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
          <Link to="/knowledge-base" className={buttonClasses("ghost")}>
            Back to Knowledge Base
          </Link>
        </div>
      </div>
    );
  }
  return children(query.data);
}
