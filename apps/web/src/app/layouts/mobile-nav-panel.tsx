import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { RefObject } from "react";
import { buttonClasses } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { SidebarNav } from "./sidebar-nav.tsx";

/** The phone menu's slide-over; loaded the first time the menu is opened (mobile-nav.tsx). */
export default function MobileNavPanel({
  open,
  onOpenChange,
  opener,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button, which gets focus back on close (it is not a Radix trigger, so Radix cannot know it). */
  opener: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 md:hidden" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            opener.current?.focus();
          }}
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
          <SidebarNav onNavigate={() => onOpenChange(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
