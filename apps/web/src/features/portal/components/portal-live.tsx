import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { connectRealtime, type RealtimeConnection } from "../../../lib/realtime.ts";
import { portalKeys } from "../api/portal.queries.ts";

const LiveContext = createContext<RealtimeConnection | null>(null);

/**
 * The customer's own realtime connection (their contact token; the socket admits contacts to their own tickets'
 * topics only). An answer from the team or a status change refetches what the portal shows of that ticket.
 */
export function PortalLiveProvider({
  token,
  onSessionEnded,
  children,
}: {
  token: string;
  onSessionEnded: () => void;
  children: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);

  useEffect(() => {
    if (typeof WebSocket === "undefined") return;
    const conn = connectRealtime({
      token,
      onReconnected: () => void queryClient.invalidateQueries({ queryKey: portalKeys.all }),
      onSessionEnded,
    });
    const stop = conn.onEvent((event) => {
      void queryClient.invalidateQueries({ queryKey: portalKeys.tickets() });
      const id = event.data.ticket_id;
      if (typeof id === "string") void queryClient.invalidateQueries({ queryKey: portalKeys.ticket(id) });
    });
    setConnection(conn);
    return () => {
      stop();
      conn.close();
      setConnection(null);
    };
  }, [token, queryClient, onSessionEnded]);

  return <LiveContext.Provider value={connection}>{children}</LiveContext.Provider>;
}

/** Follows these tickets' topics while the calling part of the portal is shown. */
export function usePortalFollow(ticketIds: readonly string[]): void {
  const conn = useContext(LiveContext);
  const key = ticketIds.join(",");
  useEffect(() => {
    if (!conn || key === "") return;
    const stops = key.split(",").map((id) => conn.follow(`ticket:${id}`));
    return () => {
      for (const stop of stops) stop();
    };
  }, [conn, key]);
}
