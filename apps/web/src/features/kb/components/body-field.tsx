import { clsx } from "clsx";
import { type ComponentProps, useDeferredValue, useState } from "react";
import { MarkdownView } from "../../../components/markdown-view.tsx";
import { describedBy, inputClasses } from "../../../components/ui/text-field.tsx";

interface BodyFieldProps extends ComponentProps<"textarea"> {
  /** The text as typed, for the preview. */
  text: string;
  error?: string;
}

const HINT = "Markdown: ## heading, **bold**, *italic*, - list, 1. steps, [link](https://…), | tables |";

/**
 * The article body in Markdown beside its live preview; on narrow screens the two are tabs. The preview renders a
 * moment behind fast typing (deferred), so typing never stutters on a long article.
 */
export function BodyField({ text, error, id = "article-body", ...textarea }: BodyFieldProps) {
  const [tab, setTab] = useState<"write" | "preview">("write");
  const preview = useDeferredValue(text);
  const tabClass = (active: boolean) =>
    clsx(
      "rounded-md px-3 py-1.5 text-sm font-medium",
      active ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900",
    );
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          Body
        </label>
        <div role="tablist" aria-label="Body view" className="flex rounded-lg bg-slate-100 p-1 lg:hidden">
          <button
            type="button"
            role="tab"
            aria-selected={tab === "write"}
            className={tabClass(tab === "write")}
            onClick={() => setTab("write")}
          >
            Write
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === "preview"}
            className={tabClass(tab === "preview")}
            onClick={() => setTab("preview")}
          >
            Preview
          </button>
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className={clsx(tab === "preview" && "hidden lg:block")}>
          <textarea
            id={id}
            rows={20}
            spellCheck
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(id, HINT, error)}
            className={clsx(inputClasses, "min-h-80 resize-y font-mono text-sm leading-6 lg:h-[36rem]")}
            {...textarea}
          />
        </div>
        <section
          aria-label="Preview"
          className={clsx(
            // Side by side, the preview keeps the editor's height and scrolls on its own.
            "min-h-80 overflow-auto rounded-md border border-slate-200 bg-white p-4 lg:h-[36rem]",
            tab === "write" && "hidden lg:block",
          )}
        >
          {preview.trim() === "" ? (
            <p className="text-sm text-slate-500 italic">The preview shows here as you write.</p>
          ) : (
            <MarkdownView source={preview} />
          )}
        </section>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {HINT}
        </p>
      )}
    </div>
  );
}
