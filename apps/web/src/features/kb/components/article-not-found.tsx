import { FileQuestion } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";

export function ArticleNotFound() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      <title>Article not found · Cove</title>
      <FileQuestion className="size-8 text-slate-400" aria-hidden="true" />
      <h1 className="text-xl font-semibold text-slate-900">Article not found</h1>
      <p className="max-w-sm text-sm text-slate-600">It may have been deleted, or the link is wrong.</p>
      <Link to="/knowledge-base" className={buttonClasses("primary")}>
        Back to Knowledge Base
      </Link>
    </div>
  );
}
