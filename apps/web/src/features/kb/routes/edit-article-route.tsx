import { useParams } from "react-router";
import { BackLink } from "../../../components/ui/page-header.tsx";
import { ArticleEditor } from "../components/article-editor.tsx";
import { ArticleFiles } from "../components/article-files.tsx";
import { ArticleLoader } from "../components/article-loader.tsx";

export function EditArticleRoute() {
  const { id = "" } = useParams();
  return (
    <ArticleLoader id={id}>
      {(article) => (
        <div className="space-y-6">
          <title>{`Edit: ${article.title} · Cove`}</title>
          <BackLink to={`/knowledge-base/${article.id}`}>Back to article</BackLink>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Edit article</h1>
          {/* Keyed, so the form starts from the saved article whenever another one is opened. */}
          <ArticleEditor key={article.id} article={article} />
          <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
            <ArticleFiles article={article} editable />
          </div>
        </div>
      )}
    </ArticleLoader>
  );
}
