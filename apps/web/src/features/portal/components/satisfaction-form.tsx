import {
  CSAT_COMMENT_MAX,
  CSAT_QUESTION,
  type CsatRating,
  type RateBody,
  type Satisfaction,
} from "@cove/contract/csat.ts";
import { clsx } from "clsx";
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { useId, useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { formatDateTime } from "../../tickets/index.ts";
import { accentButton } from "./portal-brand.ts";

const CHOICES: { rating: CsatRating; label: string; Icon: typeof ThumbsUp; on: string }[] = [
  { rating: "good", label: "Good", Icon: ThumbsUp, on: "border-emerald-600 bg-emerald-50 text-emerald-800" },
  { rating: "bad", label: "Bad", Icon: ThumbsDown, on: "border-red-600 bg-red-50 text-red-800" },
];

/**
 * The one question asked after a ticket is solved: Good or Bad, with an optional comment. Used in the portal and on
 * the emailed link's page; the answer can be changed until the survey closes.
 */
export function SatisfactionForm({
  satisfaction,
  initialRating,
  onRate,
}: {
  satisfaction: Satisfaction;
  /** Preselected (e.g. from the email's link), not yet sent. */
  initialRating?: CsatRating | null;
  onRate: (body: RateBody) => Promise<unknown>;
}) {
  const commentId = useId();
  const [rating, setRating] = useState<CsatRating | null>(satisfaction.rating ?? initialRating ?? null);
  const [comment, setComment] = useState(satisfaction.comment ?? "");
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [thanked, setThanked] = useState(false);

  if (!satisfaction.can_change) {
    return (
      <section
        aria-label="Your rating"
        className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700"
      >
        {satisfaction.rating ? (
          <p>
            You rated the support <strong>{satisfaction.rating === "good" ? "Good" : "Bad"}</strong>
            {satisfaction.comment ? `: “${satisfaction.comment}”` : "."}
          </p>
        ) : (
          <p>This survey has closed.</p>
        )}
      </section>
    );
  }

  async function send() {
    if (!rating) return setFailure("Choose Good or Bad.");
    setSending(true);
    setFailure(null);
    try {
      await onRate({ rating, comment: comment.trim() || null });
      setThanked(true);
    } catch (error) {
      setFailure(errorText(error, "Your rating could not be sent. Please try again."));
    } finally {
      setSending(false);
    }
  }

  return (
    <section
      aria-labelledby={`${commentId}-q`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5"
    >
      <h2 id={`${commentId}-q`} className="font-semibold text-slate-900">
        {CSAT_QUESTION}
      </h2>
      <fieldset className="flex gap-3">
        <legend className="sr-only">Your rating</legend>
        {CHOICES.map(({ rating: value, label, Icon, on }) => (
          <button
            key={value}
            type="button"
            aria-pressed={rating === value}
            onClick={() => {
              setRating(value);
              setThanked(false);
            }}
            className={clsx(
              "inline-flex h-11 flex-1 items-center justify-center gap-2 rounded-md border-2 text-sm font-semibold sm:flex-none sm:px-6",
              rating === value ? on : "border-slate-200 bg-white text-slate-700 hover:border-slate-400",
            )}
          >
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </button>
        ))}
      </fieldset>
      <div className="space-y-1.5">
        <label htmlFor={commentId} className="block text-sm font-medium text-slate-700">
          Comment (optional)
        </label>
        <textarea
          id={commentId}
          rows={3}
          maxLength={CSAT_COMMENT_MAX}
          value={comment}
          onChange={(e) => {
            setComment(e.target.value);
            setThanked(false);
          }}
          className={`${inputClasses} resize-y`}
        />
      </div>
      {failure && <Alert>{failure}</Alert>}
      {thanked && <Alert tone="success">Thank you for your feedback!</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-xs text-slate-500">
          You can change your answer until {formatDateTime(satisfaction.changeable_until)}.
        </p>
        <button type="button" className={accentButton} disabled={sending} onClick={() => void send()}>
          {sending && <Spinner className="size-4" />}
          {satisfaction.rating ? "Update rating" : "Send rating"}
        </button>
      </div>
    </section>
  );
}
