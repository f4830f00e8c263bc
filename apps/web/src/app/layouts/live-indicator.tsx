import { WifiOff } from "lucide-react";
import { useEffect, useState } from "react";
import { useLiveStatus } from "../../lib/realtime-provider.tsx";

/** Says so when live updates are off (the connection dropped and is being restored); nothing while they work. */
export function LiveIndicator() {
  const status = useLiveStatus();
  // A blip of a second or two (a server restart, a network hand-over) is not worth a flash on screen.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (status !== "offline") return setShown(false);
    const timer = setTimeout(() => setShown(true), 2_000);
    return () => clearTimeout(timer);
  }, [status]);
  if (!shown) return null;
  return (
    <span
      role="status"
      title="Live updates are off. Cove is reconnecting; what you see may be out of date until then."
      className="flex items-center gap-1.5 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-medium text-amber-800"
    >
      <WifiOff className="size-3.5" aria-hidden="true" />
      <span className="hidden sm:inline">Live updates off</span>
      <span className="sr-only sm:hidden">Live updates off</span>
    </span>
  );
}
