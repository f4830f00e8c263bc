import { BackLink, PageHeader } from "../../../components/ui/page-header.tsx";
import { ArticleEditor } from "../components/article-editor.tsx";

export function NewArticleRoute() {
  return (
    <div className="space-y-6">
      <BackLink to="/knowledge-base">Back to Knowledge Base</BackLink>
      <PageHeader
        title="New article"
        lead="Answer one question well. Save it as a draft until it is ready, then publish it to your help center."
      />
      <ArticleEditor />
    </div>
  );
}
