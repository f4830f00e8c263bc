import { FileQuestion } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";

/** An unknown help center or article, said plainly, with the way back. */
export function HelpNotFound({ what, home }: { what: "help center" | "article"; home?: string }) {
  const title = what === "article" ? "Article not found" : "Help center not found";
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-3 px-4 py-20 text-center">
      <title>{title}</title>
      <FileQuestion className="size-10 text-slate-400" aria-hidden="true" />
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <p className="text-sm text-slate-600">
        {what === "article"
          ? "This article may have been moved or unpublished. Try searching the help center."
          : "There is no help center at this address. Check the link you followed."}
      </p>
      {home ? (
        <Link to={home} className={buttonClasses("primary")}>
          Go to the help center
        </Link>
      ) : (
        <Link to="/" className={buttonClasses("secondary")}>
          Go to the home page
        </Link>
      )}
    </div>
  );
}
