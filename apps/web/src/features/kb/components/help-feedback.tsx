import { HELP_FEEDBACK_THANKS } from "@cove/contract/kb.ts";
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { toastError } from "../../../lib/toast-error.ts";
import { useHelpFeedback } from "../api/kb.mutations.ts";

const voteKey = (orgSlug: string, slug: string) => `cove.help.voted:${orgSlug}/${slug}`;

function hasVoted(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/** "Was this helpful?": one vote per article per browser (remembered locally; the server limits each address too). */
export function HelpFeedback({ orgSlug, articleSlug }: { orgSlug: string; articleSlug: string }) {
  const key = voteKey(orgSlug, articleSlug);
  const [voted, setVoted] = useState(() => hasVoted(key));
  const feedback = useHelpFeedback(orgSlug, articleSlug);

  async function vote(helpful: boolean) {
    try {
      await feedback.mutateAsync(helpful);
      try {
        localStorage.setItem(key, helpful ? "yes" : "no");
      } catch {
        // Private browsing may refuse storage; the vote still counted.
      }
      setVoted(true);
    } catch (error) {
      toastError(error, "Your feedback could not be sent. Please try again.");
    }
  }

  return (
    <section
      aria-label="Feedback"
      className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-slate-50 p-5 text-center sm:flex-row sm:justify-between sm:text-left"
    >
      {voted ? (
        <p role="status" className="text-sm font-medium text-slate-700">
          {HELP_FEEDBACK_THANKS}
        </p>
      ) : (
        <>
          <p className="text-sm font-medium text-slate-900">Was this helpful?</p>
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" disabled={feedback.isPending} onClick={() => void vote(true)}>
              <ThumbsUp className="size-4" aria-hidden="true" />
              Yes
            </Button>
            <Button variant="secondary" size="sm" disabled={feedback.isPending} onClick={() => void vote(false)}>
              <ThumbsDown className="size-4" aria-hidden="true" />
              No
            </Button>
          </div>
        </>
      )}
    </section>
  );
}
