import type { AiResponseAnswer } from "@cove/contract/ai.ts";
import { clsx } from "clsx";
import { BookOpen, UserRound } from "lucide-react";

export function confidencePercent(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

function confidenceLevel(confidence: number): { label: string; className: string } {
  if (confidence >= 0.8) return { label: "high", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" };
  if (confidence >= 0.5) return { label: "medium", className: "bg-amber-50 text-amber-800 ring-amber-200" };
  return { label: "low", className: "bg-slate-100 text-slate-700 ring-slate-200" };
}

/**
 * What goes under each of the assistant's replies: its confidence, the suggested next steps, the articles it
 * answered from (as links to the help center) and whether it handed the conversation to a person.
 */
export function ReplyDetails({ reply, note }: { reply: AiResponseAnswer; note?: string }) {
  const level = confidenceLevel(reply.confidence);
  return (
    <div className="mt-2 space-y-2 text-xs">
      <div className="flex flex-wrap items-center gap-2">
        <span className={clsx("rounded-full px-2 py-0.5 font-medium ring-1 ring-inset", level.className)}>
          Confidence: {confidencePercent(reply.confidence)} ({level.label})
        </span>
        {reply.handoff && (
          <span className="inline-flex items-center gap-1 rounded-full bg-indigo-50 px-2 py-0.5 font-medium text-indigo-800 ring-1 ring-indigo-200 ring-inset">
            <UserRound className="size-3" aria-hidden="true" />
            Handed off to a person
          </span>
        )}
        {note && <span className="text-slate-500">{note}</span>}
      </div>
      {reply.sources.length > 0 && (
        <div>
          <p className="font-medium text-slate-600">Sources</p>
          <ul className="mt-1 space-y-1">
            {reply.sources.map((source) => (
              <li key={source.id}>
                <a
                  href={source.url}
                  target="_blank"
                  rel="noopener"
                  className="inline-flex items-center gap-1 font-medium text-indigo-700 underline-offset-2 hover:underline"
                >
                  <BookOpen className="size-3.5 shrink-0" aria-hidden="true" />
                  {source.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      {reply.suggestedActions.length > 0 && (
        <div>
          <p className="font-medium text-slate-600">Suggested actions</p>
          <ul className="mt-1 flex flex-wrap gap-1.5">
            {reply.suggestedActions.map((action) => (
              <li key={action} className="rounded-md border border-slate-200 bg-white px-2 py-0.5 text-slate-700">
                {action}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
