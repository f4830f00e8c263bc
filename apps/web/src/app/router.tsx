import { useEffect } from "react";
import {
  createBrowserRouter,
  type LazyRouteFunction,
  Outlet,
  type RouteObject,
  ScrollRestoration,
  useLocation,
} from "react-router";
import { FullPageSpinner } from "../components/ui/spinner.tsx";
import { GuestOnly, RequireAdmin, RequireAuth } from "../features/auth/components/auth-gate.tsx";
import { dismissErrorToasts } from "../lib/error-toasts.ts";
import { NotFoundPage } from "../pages/public/not-found-page.tsx";
import { RouteErrorBoundary } from "./route-error-boundary.tsx";

type Lazy = LazyRouteFunction<RouteObject>;

// Every screen is its own chunk (route `lazy`), so the landing and sign-in pages download only what they show.
// Public pages: a layout route gives their links the router (pages/public/site/router-site.tsx).
const publicSite: Lazy = async () => ({
  Component: (await import("../pages/public/site/router-site.tsx")).RouterSite,
});
const landing: Lazy = async () => ({
  Component: (await import("../pages/public/landing/landing-page.tsx")).LandingPage,
});
const about: Lazy = async () => ({ Component: (await import("../pages/public/about/about-page.tsx")).AboutPage });
const terms: Lazy = async () => ({ Component: (await import("../pages/public/legal/terms-page.tsx")).TermsPage });
const privacy: Lazy = async () => ({
  Component: (await import("../pages/public/legal/privacy-page.tsx")).PrivacyPage,
});
const demo: Lazy = async () => ({ Component: (await import("../pages/public/demo/demo-page.tsx")).DemoPage });
const aiTest: Lazy = async () => ({
  Component: (await import("../pages/public/ai-test/ai-test-page.tsx")).AiTestPage,
});
const chatLayout: Lazy = async () => ({
  Component: (await import("../pages/public/dev/chat-layout-page.tsx")).ChatLayoutPage,
});
const debugLog: Lazy = async () => ({ Component: (await import("../pages/public/dev/debug-page.tsx")).DebugPage });
const login: Lazy = async () => ({ Component: (await import("../features/auth/routes/login-route.tsx")).LoginRoute });
const register: Lazy = async () => ({
  Component: (await import("../features/auth/routes/register-route.tsx")).RegisterRoute,
});
const resetPassword: Lazy = async () => ({
  Component: (await import("../features/auth/routes/reset-password-route.tsx")).ResetPasswordRoute,
});
const acceptInvite: Lazy = async () => ({
  Component: (await import("../features/auth/routes/accept-invite-route.tsx")).AcceptInviteRoute,
});
const profile: Lazy = async () => ({
  Component: (await import("../features/auth/routes/profile-route.tsx")).ProfileRoute,
});
const twoFactorEnrol: Lazy = async () => ({
  Component: (await import("../features/auth/routes/two-factor-enrol-route.tsx")).TwoFactorEnrolRoute,
});
const users: Lazy = async () => ({ Component: (await import("../features/users/routes/users-route.tsx")).UsersRoute });
const appLayout: Lazy = async () => ({ Component: (await import("./layouts/app-layout.tsx")).AppLayout });
const dashboard: Lazy = async () => ({
  Component: (await import("../features/dashboard/routes/dashboard-route.tsx")).DashboardRoute,
});
// Its charts (recharts) come with it, in its own chunks: no first visit downloads them.
const reports: Lazy = async () => ({
  Component: (await import("../features/reports/routes/reports-route.tsx")).ReportsRoute,
});
const ticketsList: Lazy = async () => ({
  Component: (await import("../features/tickets/routes/tickets-list-route.tsx")).TicketsListRoute,
});
const newTicket: Lazy = async () => ({
  Component: (await import("../features/tickets/routes/new-ticket-route.tsx")).NewTicketRoute,
});
const ticketDetail: Lazy = async () => ({
  Component: (await import("../features/tickets/routes/ticket-detail-route.tsx")).TicketDetailRoute,
});
const kbList: Lazy = async () => ({
  Component: (await import("../features/kb/routes/kb-list-route.tsx")).KbListRoute,
});
const newArticle: Lazy = async () => ({
  Component: (await import("../features/kb/routes/new-article-route.tsx")).NewArticleRoute,
});
const articleView: Lazy = async () => ({
  Component: (await import("../features/kb/routes/article-route.tsx")).ArticleRoute,
});
const editArticle: Lazy = async () => ({
  Component: (await import("../features/kb/routes/edit-article-route.tsx")).EditArticleRoute,
});
// The public help center: its own frame (no app layout), for visitors signed in or not.
const helpLayout: Lazy = async () => ({
  Component: (await import("../features/kb/routes/help-center-layout.tsx")).HelpCenterLayout,
});
const helpCenter: Lazy = async () => ({
  Component: (await import("../features/kb/routes/help-center-route.tsx")).HelpCenterRoute,
});
const helpArticle: Lazy = async () => ({
  Component: (await import("../features/kb/routes/help-article-route.tsx")).HelpArticleRoute,
});

// The customer portal: its own frame and session (a customer's, never a member's), for the organization's customers.
const portal: Lazy = async () => ({
  Component: (await import("../features/portal/routes/portal-route.tsx")).PortalRoute,
});
const demoPortal: Lazy = async () => ({
  Component: (await import("../features/portal/routes/demo-portal-route.tsx")).DemoPortalRoute,
});
const satisfaction: Lazy = async () => ({
  Component: (await import("../features/portal/routes/satisfaction-route.tsx")).SatisfactionRoute,
});
const contacts: Lazy = async () => ({
  Component: (await import("../features/contacts/routes/contacts-route.tsx")).ContactsRoute,
});
const contact: Lazy = async () => ({
  Component: (await import("../features/contacts/routes/contact-route.tsx")).ContactRoute,
});

const chat: Lazy = async () => ({ Component: (await import("../features/chat/routes/chat-route.tsx")).ChatRoute });

const aiAssistant: Lazy = async () => ({
  Component: (await import("../features/ai/routes/ai-assistant-route.tsx")).AiAssistantRoute,
});

const billing: Lazy = async () => ({
  Component: (await import("../features/billing/routes/billing-route.tsx")).BillingRoute,
});
const automation: Lazy = async () => ({
  Component: (await import("../features/automation/routes/automation-route.tsx")).AutomationRoute,
});
const settings: Lazy = async () => ({
  Component: (await import("../features/settings/routes/settings-route.tsx")).SettingsRoute,
});

/** A leaf screen with its own error boundary, so one broken page never takes the layout down with it. */
function page(path: string, lazy: Lazy): RouteObject {
  return { path, lazy, ErrorBoundary: RouteErrorBoundary };
}

function RootLayout() {
  const { pathname, search } = useLocation();
  // An error toast is about the screen it was raised on: moving to another screen dismisses it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of address.
  useEffect(() => dismissErrorToasts(), [pathname, search]);
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: FullPageSpinner,
    children: [
      {
        lazy: publicSite,
        children: [
          page("/", landing),
          page("/homepage", landing),
          page("/about", about),
          page("/terms", terms),
          page("/privacy", privacy),
          page("/demo", demo),
          page("/ai-test", aiTest),
          page("/chat-layout", chatLayout),
          page("/debug", debugLog),
        ],
      },
      page("/reset-password", resetPassword),
      // Not guest-only: someone signed in on a shared computer can still open the link meant for them.
      page("/accept-invite", acceptInvite),
      {
        path: "/help/:orgSlug",
        lazy: helpLayout,
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { index: true, lazy: helpCenter, ErrorBoundary: RouteErrorBoundary },
          page("articles/:articleSlug", helpArticle),
        ],
      },
      page("/portal/:orgSlug", portal),
      page("/portal/:orgSlug/satisfaction", satisfaction),
      page("/customer-portal", demoPortal),
      {
        Component: GuestOnly,
        children: [page("/login", login), page("/register", register)],
      },
      {
        Component: RequireAuth,
        children: [
          // Outside the app's layout: a member who must set up two-factor sign-in sees nothing else (auth-gate.tsx).
          page("/two-factor-setup", twoFactorEnrol),
          {
            lazy: appLayout,
            ErrorBoundary: RouteErrorBoundary,
            children: [
              page("/dashboard", dashboard),
              page("/reports", reports),
              page("/tickets", ticketsList),
              page("/tickets/new", newTicket),
              page("/tickets/:ticketId", ticketDetail),
              page("/contacts", contacts),
              page("/contacts/:contactId", contact),
              page("/chat", chat),
              page("/ai-assistant", aiAssistant),
              page("/knowledge-base", kbList),
              page("/knowledge-base/new", newArticle),
              page("/knowledge-base/:id", articleView),
              page("/knowledge-base/:id/edit", editArticle),
              page("/users", users),
              page("/profile", profile),
              // docs/product.md, "Roles": agents see automation read-only; billing and settings are for admins (the
              // server enforces it too).
              page("/automation", automation),
              {
                Component: RequireAdmin,
                children: [page("/billing", billing), page("/settings", settings)],
              },
            ],
          },
        ],
      },
      // Not lazy: the error boundary shows it too, so it is in the main bundle anyway.
      { path: "*", Component: NotFoundPage },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
