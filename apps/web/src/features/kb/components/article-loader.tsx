import type { Article } from "@cove/contract/kb.ts";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { z } from "zod";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { LoadError, Loading } from "../../../components/ui/load-states.tsx";
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
  if (query.isPending) return <Loading label="Loading article" />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <ArticleNotFound />;
    return (
      <LoadError
        className="space-y-4"
        title="Error loading article"
        error={query.error}
        onRetry={() => void query.refetch()}
      >
        <Link to="/knowledge-base" className={buttonClasses("ghost", "sm")}>
          Back to Knowledge Base
        </Link>
      </LoadError>
    );
  }
  return children(query.data);
}
