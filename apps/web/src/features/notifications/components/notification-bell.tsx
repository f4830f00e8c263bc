import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Bell } from "lucide-react";
import { buttonClasses } from "../../../components/ui/button.tsx";

/** The bell and its panel; the real notification feed arrives in a later issue. */
export function NotificationBell() {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger aria-label="Notifications" className={buttonClasses("ghost", "icon")}>
        <Bell className="size-5" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-72 rounded-lg border border-slate-200 bg-white p-4 shadow-lg"
        >
          <DropdownMenu.Label className="text-sm font-semibold text-slate-900">Notifications</DropdownMenu.Label>
          <p className="mt-2 text-sm text-slate-500">No notifications yet</p>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
