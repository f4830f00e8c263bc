import {
  billingConfigAnswer,
  billingMessage,
  invoiceListAnswer,
  type PaymentProviderKind,
  type SubscribeAnswer,
  subscribeAnswer,
  subscriptionAnswer,
} from "@cove/contract/billing.ts";
import { type BillingDetailsBody, billingDetailsAnswer, planChangePreview } from "@cove/contract/billing-account.ts";
import type { PlanId } from "@cove/contract/constants.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

export const subscriptionKey = ["billing", "subscription"] as const;
const invoicesKey = ["billing", "invoices"] as const;
const detailsKey = ["billing", "details"] as const;
const trialKey = ["trial", "status"] as const;

export function useBillingConfig() {
  return useQuery({
    queryKey: ["billing", "config"],
    queryFn: ({ signal }) => apiRequest("/billing/config", { schema: billingConfigAnswer, signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSubscription() {
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: ({ signal }) => apiRequest("/billing/subscription", { schema: subscriptionAnswer, signal }),
  });
}

export function useInvoices() {
  return useQuery({
    queryKey: invoicesKey,
    queryFn: ({ signal }) => apiRequest("/billing/invoices", { schema: invoiceListAnswer, signal }),
  });
}

/** What moving to plan would cost, asked when the admin chooses it (never cached: it depends on the day). */
export const fetchPlanChangePreview = (plan: PlanId) =>
  apiRequest(`/billing/change-plan/preview?plan=${encodeURIComponent(plan)}`, { schema: planChangePreview });

export function useBillingDetails() {
  return useQuery({
    queryKey: detailsKey,
    queryFn: ({ signal }) => apiRequest("/billing/details", { schema: billingDetailsAnswer, signal }),
  });
}

export function useSaveBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsBody) =>
      apiRequest("/billing/details", { method: "PUT", body, schema: billingDetailsAnswer }),
    onSuccess: (answer) => queryClient.setQueryData(detailsKey, answer),
  });
}

/** Downloads an invoice's PDF: the call needs the session's token, so it is fetched and handed to the browser. */
export function downloadInvoicePdf(id: string): Promise<void> {
  return downloadWithSession(
    `/billing/invoices/${encodeURIComponent(id)}/pdf`,
    "invoice.pdf",
    "The invoice could not be downloaded. Reload the page and try again.",
  );
}

/** Every billing change reloads the subscription, its invoices and the trial banner (spec: "then reload"). */
function useBillingMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ["billing"] }),
        queryClient.invalidateQueries({ queryKey: trialKey }),
      ]);
    },
  });
}

export const useSubscribe = () =>
  useBillingMutation((body: { plan: PlanId; paymentMethodId: string }) =>
    apiRequest("/billing/subscribe", { method: "POST", body, schema: subscribeAnswer }),
  );

export const useConvertTrial = () =>
  useBillingMutation((body: { plan: PlanId; paymentMethodId: string }) =>
    apiRequest("/trial/convert", { method: "POST", body, schema: subscribeAnswer }),
  );

export const useCancelSubscription = () =>
  useBillingMutation(() => apiRequest("/billing/cancel", { method: "POST", schema: billingMessage }));

export const useResumeSubscription = () =>
  useBillingMutation(() => apiRequest("/billing/resume", { method: "POST", schema: billingMessage }));

export const useChangePlan = () =>
  useBillingMutation((plan: PlanId) =>
    apiRequest("/billing/change-plan", { method: "POST", body: { plan }, schema: billingMessage }),
  );

export const useUpdatePaymentMethod = () =>
  useBillingMutation(
    async (paymentMethodId: string): Promise<SubscribeAnswer> => ({
      status: "active",
      message: (
        await apiRequest("/billing/payment-method", {
          method: "POST",
          body: { paymentMethodId },
          schema: billingMessage,
        })
      ).message,
    }),
  );

/** The test provider's card form call: a test card becomes a payment method id. */
export async function createTestPaymentMethod(card: {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  name: string;
  address: { line1: string; city: string; postal_code: string; country: string };
}): Promise<string> {
  const answer = await apiRequest("/test-provider/payment-methods", {
    method: "POST",
    body: card,
    schema: z.object({ id: z.string() }),
  });
  return answer.id;
}

export async function confirmTestPayment(clientSecret: string, outcome: "complete" | "fail"): Promise<void> {
  await apiRequest("/test-provider/confirm", {
    method: "POST",
    body: { client_secret: clientSecret, outcome },
    schema: z.object({ status: z.string() }),
  });
}

export type { PaymentProviderKind };

/** Reloads what a payment changes: after a confirmation step, the mutation itself settled before the payment did. */
export function useReloadBilling() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["billing"] }),
      queryClient.invalidateQueries({ queryKey: trialKey }),
    ]);
}
