import { Logo } from "../../../components/ui/logo.tsx";
import { SiteLink } from "./site-nav.tsx";

export const SUPPORT_EMAIL = "support@cove.example";

const COLUMNS = [
  {
    title: "Product",
    links: [
      { label: "Features", to: "/#features" },
      { label: "Pricing", to: "/#pricing" },
      { label: "Setup demo", to: "/demo" },
      { label: "AI assistant demo", to: "/ai-test" },
    ],
  },
  {
    title: "Company",
    links: [
      { label: "About Cove", to: "/about" },
      { label: "Contact support", to: `mailto:${SUPPORT_EMAIL}` },
    ],
  },
  {
    title: "Legal",
    links: [
      { label: "Privacy Policy", to: "/privacy" },
      { label: "Terms of Service", to: "/terms" },
      // Both are settings of a signed-in account.
      { label: "Data Rights", to: "/login" },
      { label: "Cookie Settings", to: "/login" },
    ],
  },
  {
    title: "Get started",
    links: [
      { label: "Sign in", to: "/login" },
      { label: "Start free trial", to: "/register" },
    ],
  },
];

export function SiteFooter() {
  return (
    <footer className="bg-slate-900 text-slate-300">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.2fr_2fr] lg:px-8">
        <div className="max-w-xs">
          <Logo className="text-white [&_span]:text-white" />
          <p className="mt-4 text-sm leading-6 text-slate-400">
            The help desk for small teams: tickets, live chat and an AI assistant that answers from your own articles.
          </p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-4">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <SiteLink
                      to={link.to}
                      className="rounded-sm text-sm text-slate-300 transition-colors hover:text-white hover:underline"
                    >
                      {link.label}
                    </SiteLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto w-full max-w-6xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} Cove. Made for teams of 1 to 15.
        </p>
      </div>
    </footer>
  );
}
