import { clsx } from "clsx";
import { NavLink } from "react-router";
import { useAuth } from "../../lib/auth.ts";
import { NAV_ITEMS } from "./nav-items.ts";

/** The list of app sections; used by the desktop sidebar and the phone slide-over alike. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const { user } = useAuth();
  const items = NAV_ITEMS.filter((item) => !item.adminOnly || user?.role === "admin");
  return (
    <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-4">
      <ul className="space-y-1">
        {items.map(({ label, to, icon: Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              onClick={onNavigate}
              className={({ isActive }) =>
                clsx(
                  "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
                  isActive ? "bg-indigo-50 text-indigo-700" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
                )
              }
            >
              {({ isActive }) => (
                <>
                  <Icon
                    className={clsx("size-5", isActive ? "text-indigo-600" : "text-slate-400")}
                    aria-hidden="true"
                  />
                  {label}
                </>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
