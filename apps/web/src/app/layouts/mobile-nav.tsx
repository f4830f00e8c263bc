import * as Dialog from "@radix-ui/react-dialog";
import { Menu, X } from "lucide-react";
import { useState } from "react";
import { buttonClasses } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { SidebarNav } from "./sidebar-nav.tsx";

/** Below the md breakpoint the sidebar becomes a slide-over opened from the top bar. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger aria-label="Open menu" className={buttonClasses("ghost", "icon", "md:hidden")}>
        <Menu className="size-5" aria-hidden="true" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl md:hidden"
        >
          <div className="flex h-16 items-center justify-between border-b border-slate-200 px-4">
            <Dialog.Title asChild>
              <span>
                <Logo />
                <span className="sr-only"> menu</span>
              </span>
            </Dialog.Title>
            <Dialog.Close aria-label="Close menu" className={buttonClasses("ghost", "icon")}>
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <SidebarNav onNavigate={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
