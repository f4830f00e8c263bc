import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";

/** Spec section 5: a message is sent only if it is not blank after trimming, and trimmed before sending. */
interface SendBoxProps {
  pending: boolean;
  onSend: (text: string) => Promise<unknown>;
  /** Called as the agent types (the visitor sees it). */
  onTyping?: () => void;
}

export function SendBox({ pending, onSend, onTyping }: SendBoxProps) {
  const [text, setText] = useState("");
  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed || pending) return;
    try {
      await onSend(trimmed);
      setText("");
    } catch {
      // The failure is shown by the mutation; the text stays so it can be sent again.
    }
  };
  return (
    <form
      className="flex gap-2 border-t border-slate-200 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor="chat-send-box" className="sr-only">
        Message
      </label>
      <input
        id="chat-send-box"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim()) onTyping?.();
        }}
        maxLength={2000}
        placeholder="Type a message…"
        autoComplete="off"
        className="h-10 min-w-0 flex-1 rounded-md border border-slate-300 px-3 text-sm focus:border-indigo-500 focus:outline-none"
      />
      <Button type="submit" pending={pending} disabled={text.trim() === ""}>
        Send
      </Button>
    </form>
  );
}
