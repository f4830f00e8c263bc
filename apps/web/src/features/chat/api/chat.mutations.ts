import type { WrongAnswerBody } from "@cove/contract/ai.ts";
import {
  CHAT_CLOSE_FAILED,
  CHAT_SEND_FAILED,
  type ChatMessage,
  chatApi,
  chatMessageAnswer,
} from "@cove/contract/chat.ts";
import { routePath } from "@cove/contract/routes.ts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { callRoute } from "../../../lib/api-client.ts";
import { chatKeys, ticketKeys } from "../../../lib/query-keys.ts";
import { getSession } from "../../../lib/session-storage.ts";
import { toastError } from "../../../lib/toast-error.ts";
import { uploadFile, useAttachmentLimits } from "../../../lib/uploads.ts";

/** The spec's fixed alert, with the server's reason underneath when it gave one. */
function toastFailure(title: string, error: unknown) {
  toastError(error, title);
}

export function useSendChatMessage(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (message: string) =>
      (await callRoute(chatApi.send, { params: { id: sessionId }, body: { message } })).message,
    onSuccess: (message) => {
      queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(sessionId), (list) =>
        list?.some((m) => m.id === message.id) ? list : [...(list ?? []), message],
      );
      void queryClient.invalidateQueries({ queryKey: chatKeys.sessions() });
      void queryClient.invalidateQueries({ queryKey: chatKeys.stats() });
    },
    onError: (error) => toastFailure(CHAT_SEND_FAILED, error),
  });
}

/**
 * Files the agent sends in a chat: each is uploaded at once as a message of its own (progress for each, the server's
 * limits checked first), and joins the conversation when it arrives.
 */
export function useChatFiles(sessionId: string) {
  const queryClient = useQueryClient();
  const limits = useAttachmentLimits();
  const [uploads, setUploads] = useState<ChatUpload[]>([]);
  const nextKey = useRef(0);
  const send = (files: File[]) => {
    for (const file of files) {
      const key = nextKey.current++;
      const update = (change: Partial<ChatUpload>) =>
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
      setUploads((list) => [...list, { key, name: file.name, progress: 0 }]);
      uploadFile({
        url: routePath(chatApi.sendFile, { id: sessionId }),
        token: getSession()?.token,
        file,
        maxFileBytes: limits.max_file_bytes,
        onProgress: (progress) => update({ progress }),
        read: (body) => chatMessageAnswer.safeParse(body).data?.message ?? null,
      })
        .then((message) => {
          setUploads((list) => list.filter((u) => u.key !== key));
          queryClient.setQueryData<ChatMessage[]>(chatKeys.messages(sessionId), (list) =>
            list?.some((m) => m.id === message.id) ? list : [...(list ?? []), message],
          );
          void queryClient.invalidateQueries({ queryKey: chatKeys.sessions() });
        })
        .catch((error: unknown) => update({ error: error instanceof Error ? error.message : "Upload failed" }));
    }
  };
  return {
    uploads,
    limits,
    send,
    dismiss: (key: number) => setUploads((list) => list.filter((u) => u.key !== key)),
  };
}

/** A file on its way into a chat, or refused (error). */
export interface ChatUpload {
  key: number;
  name: string;
  progress: number;
  error?: string;
}

export function useCloseChatSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      callRoute(chatApi.close, { params: { id: sessionId }, body: { status: "closed" } }),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: chatKeys.all });
    },
    onError: (error) => toastFailure(CHAT_CLOSE_FAILED, error),
  });
}

export function useTakeChatSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => callRoute(chatApi.take, { params: { id: sessionId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: chatKeys.sessions() }),
    onError: (error) => toastFailure("Failed to take the chat", error),
  });
}

/** "Create ticket": the conversation becomes a ticket with its transcript. */
export function useChatToTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => callRoute(chatApi.toTicket, { params: { id: sessionId } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: chatKeys.all });
      void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
    },
    onError: (error) => toastFailure("Failed to create a ticket from this chat", error),
  });
}

/**
 * "Wrong answer" on one of the assistant's answers: the article that answers the customer's question (its question
 * becomes a suggested example question of it), or none (not covered). The answer says what became of the question.
 */
export function useMarkWrongAnswer(sessionId: string, messageId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WrongAnswerBody) =>
      callRoute(chatApi.wrongAnswer, { params: { id: sessionId, messageId }, body }),
    // The AI Assistant page's suggestions, unanswered questions and threshold may have changed.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["ai"] }),
  });
}
