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
        // In the organization's colour, like the rest of its help center (help-center-layout.tsx sets the variables).
        <Link
          to={home}
          className="inline-flex h-10 items-center justify-center rounded-md bg-(--brand,var(--color-indigo-600)) px-4 text-sm font-medium text-(--brand-ink,var(--color-white)) shadow-sm transition-opacity hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-(--brand-text,var(--color-indigo-500))"
        >
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
