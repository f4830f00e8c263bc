import { Construction } from "lucide-react";
import { useMatches } from "react-router";

export interface PlaceholderHandle {
  title: string;
}

function isPlaceholderHandle(handle: unknown): handle is PlaceholderHandle {
  return typeof handle === "object" && handle !== null && "title" in handle && typeof handle.title === "string";
}

/** Route component for every placeholder; the title comes from the route's `handle`. */
export function PlaceholderRoute() {
  const handle = useMatches().findLast((m) => isPlaceholderHandle(m.handle))?.handle;
  return <PlaceholderPage title={isPlaceholderHandle(handle) ? handle.title : "Cove"} />;
}

/** Stands in for a screen a later issue builds, so navigation and the layout can be used today. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <div className="space-y-6">
      <title>{`${title} · Cove`}</title>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <Construction className="size-8 text-slate-400" aria-hidden="true" />
        <p className="text-sm text-slate-600">This screen is not available yet.</p>
      </div>
    </div>
  );
}
