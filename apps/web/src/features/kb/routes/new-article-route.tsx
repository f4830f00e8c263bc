import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { ArticleEditor } from "../components/article-editor.tsx";

export function NewArticleRoute() {
  return (
    <div className="space-y-6">
      <title>New article · Cove</title>
      <Link to="/knowledge-base" className={buttonClasses("ghost", "sm", "-ml-3")}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to Knowledge Base
      </Link>
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New article</h1>
        <p className="mt-1 text-sm text-slate-600">
          Answer one question well. Save it as a draft until it is ready, then publish it to your help center.
        </p>
      </header>
      <ArticleEditor />
    </div>
  );
}
