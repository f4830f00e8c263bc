import { Spinner } from "../../../components/ui/spinner.tsx";
import { CARD, TitledSection } from "../../../components/ui/titled-section.tsx";
import { useChatStats } from "../api/chat.queries.ts";

/** The assistant's share of live chats: resolved by it alone (closed with no hand-off) vs handed to a person. */
export function ChatShareCard() {
  const stats = useChatStats();
  const data = stats.data;
  const decided = data ? data.resolved_by_ai + data.handed_off : 0;
  return (
    <TitledSection
      titleId="chat-share-title"
      title="Live chats resolved by the assistant"
      className={CARD}
      titleClassName="text-sm font-semibold text-slate-900"
    >
      {stats.isError && <p className="mt-3 text-sm text-red-700">The figures could not be loaded.</p>}
      {stats.isPending && (
        <div className="mt-4 text-indigo-600">
          <Spinner label="Loading the live chat figures" />
        </div>
      )}
      {data && (
        <>
          <p className="mt-3 text-4xl font-semibold tracking-tight text-slate-900 tabular-nums">
            {decided === 0 ? "—" : `${Math.round((data.resolved_by_ai / decided) * 100)}%`}
          </p>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-slate-500">Resolved by the assistant</dt>
              <dd className="font-medium text-slate-900">{data.resolved_by_ai.toLocaleString("en-US")}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Handed off to a person</dt>
              <dd className="font-medium text-slate-900">{data.handed_off.toLocaleString("en-US")}</dd>
            </div>
          </dl>
        </>
      )}
    </TitledSection>
  );
}
