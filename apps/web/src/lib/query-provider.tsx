import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";

const FIVE_MINUTES = 5 * 60 * 1000;

/** docs/product.md: no retries, fresh for 5 minutes, no refetch on focus, reconnect or interval (live data comes by socket). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: FIVE_MINUTES,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        refetchInterval: false,
      },
      mutations: { retry: false },
    },
  });
}

/**
 * One query cache per signed-in session, mounted by the app layout (keyed by the session token). Two reasons: a
 * cache can never show one user's data to the next user of the browser, and TanStack Query stays out of the landing
 * page's bundle (docs/engineering.md: <= 100 KB gzip). Public screens that need queries mount their own.
 */
export function SessionQueryProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
