import { Outlet } from "react-router";
import { Logo } from "../../components/ui/logo.tsx";
import { ReadOnlyNotice } from "../../features/trial/components/read-only-notice.tsx";
import { useAuth } from "../../lib/auth.ts";
import { SessionQueryProvider } from "../../lib/query-provider.tsx";
import { RealtimeProvider } from "../realtime-provider.tsx";
import { SidebarNav } from "./sidebar-nav.tsx";
import { TopBar } from "./top-bar.tsx";

/** The frame of every signed-in screen: sidebar (slide-over on phones), top bar, and the page. */
export function AppLayout() {
  const { token } = useAuth();
  return (
    // A new session (even one switched in another tab) gets a fresh, empty query cache.
    <SessionQueryProvider key={token ?? "none"}>
      <RealtimeProvider token={token}>
        <div className="min-h-screen bg-slate-50">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
          >
            Skip to content
          </a>
          <aside className="fixed inset-y-0 left-0 z-20 hidden w-64 flex-col border-r border-slate-200 bg-white md:flex">
            <div className="flex h-16 items-center border-b border-slate-200 px-6">
              <Logo />
            </div>
            <SidebarNav />
          </aside>
          <div className="flex min-h-screen flex-col md:pl-64">
            <TopBar />
            <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8">
              <div className="mx-auto max-w-6xl">
                <ReadOnlyNotice />
                <Outlet />
              </div>
            </main>
          </div>
        </div>
      </RealtimeProvider>
    </SessionQueryProvider>
  );
}
