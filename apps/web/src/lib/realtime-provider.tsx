import { authApi } from "@cove/contract/auth.ts";
import type { Viewer } from "@cove/contract/realtime.ts";
import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { callRoute } from "./api-client.ts";
import { createLiveUpdates } from "./live-updates.ts";
import { connectRealtime, type LiveStatus, type RealtimeConnection } from "./realtime.ts";

const RealtimeContext = createContext<RealtimeConnection | null>(null);

/**
 * One realtime connection per signed-in session, mounted inside its query cache: the organization's tickets and the
 * member's notifications are followed for as long as they are signed in; screens follow more (a ticket) while shown.
 */
export function RealtimeProvider({ token, children }: { token: string | null; children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<RealtimeConnection | null>(null);

  useEffect(() => {
    if (!token || typeof WebSocket === "undefined") return;
    const live = createLiveUpdates(queryClient);
    const conn = connectRealtime({
      token,
      onReconnected: live.refetchAll,
      // The server ended the session: asking who we are ends it here too (the API client clears it on 401).
      onSessionEnded: () => void callRoute(authApi.me, {}).catch(() => {}),
    });
    const stopEvents = conn.onEvent((event) => live.apply(event));
    const unfollow = [conn.follow("tickets"), conn.follow("notifications")];
    setConnection(conn);
    return () => {
      for (const stop of unfollow) stop();
      stopEvents();
      live.dispose();
      conn.close();
      setConnection(null);
    };
  }, [token, queryClient]);

  return <RealtimeContext.Provider value={connection}>{children}</RealtimeContext.Provider>;
}

/** Whether live updates are on; "connecting" at first, "offline" while the connection is being restored. */
export function useLiveStatus(): LiveStatus {
  const conn = useContext(RealtimeContext);
  const [status, setStatus] = useState<LiveStatus>(conn?.status() ?? "connecting");
  useEffect(() => {
    if (!conn) return;
    setStatus(conn.status());
    return conn.onStatus(setStatus);
  }, [conn]);
  return status;
}

/** Follows a topic while the calling screen is shown. */
export function useFollow(topic: string | null): void {
  const conn = useContext(RealtimeContext);
  useEffect(() => {
    if (!conn || !topic) return;
    return conn.follow(topic);
  }, [conn, topic]);
}

/**
 * Who else is on a topic (a ticket), live, and a function that tells them you are replying (call it as you type; it
 * sends at most every two seconds).
 */
export function usePresence(topic: string): { viewers: Viewer[]; typing: () => void } {
  const conn = useContext(RealtimeContext);
  const [viewers, setViewers] = useState<Viewer[]>([]);
  const [typing, setTyping] = useState<() => void>(() => () => {});
  useEffect(() => {
    if (!conn) return;
    const unfollow = conn.follow(topic);
    const stop = conn.onPresence(topic, setViewers);
    let last = 0;
    setTyping(() => () => {
      const now = Date.now();
      if (now - last < 2_000) return;
      last = now;
      conn.typing(topic);
    });
    return () => {
      stop();
      unfollow();
      setViewers([]);
    };
  }, [conn, topic]);
  return { viewers, typing };
}
