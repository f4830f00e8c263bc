import type { PaymentProviderKind, SubscribeAnswer } from "@cove/contract/billing.ts";
import { type BillingDetailsBody, billingApi } from "@cove/contract/billing-account.ts";
import type { PlanId } from "@cove/contract/constants.ts";
import { routePath } from "@cove/contract/routes.ts";
import { type TestCardBody, testProviderApi } from "@cove/contract/test-provider.ts";
import { trialApi } from "@cove/contract/trial.ts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callRoute } from "../../../lib/api-client.ts";
import { downloadWithSession } from "../../../lib/download.ts";

export const subscriptionKey = ["billing", "subscription"] as const;
const invoicesKey = ["billing", "invoices"] as const;
const detailsKey = ["billing", "details"] as const;
const trialKey = ["trial", "status"] as const;

export function useBillingConfig() {
  return useQuery({
    queryKey: ["billing", "config"],
    queryFn: ({ signal }) => callRoute(billingApi.config, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSubscription() {
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: ({ signal }) => callRoute(billingApi.subscription, { signal }),
  });
}

export function useInvoices() {
  return useQuery({
    queryKey: invoicesKey,
    queryFn: ({ signal }) => callRoute(billingApi.invoices, { signal }),
  });
}

/** What moving to plan would cost, asked when the admin chooses it (never cached: it depends on the day). */
export const fetchPlanChangePreview = (plan: PlanId) => callRoute(billingApi.planChangePreview, { query: { plan } });

export function useBillingDetails() {
  return useQuery({
    queryKey: detailsKey,
    queryFn: ({ signal }) => callRoute(billingApi.details, { signal }),
  });
}

export function useSaveBillingDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsBody) => callRoute(billingApi.saveDetails, { body }),
    onSuccess: (answer) => queryClient.setQueryData(detailsKey, answer),
  });
}

/** Downloads an invoice's PDF: the call needs the session's token, so it is fetched and handed to the browser. */
export function downloadInvoicePdf(id: string): Promise<void> {
  return downloadWithSession(
    routePath(billingApi.invoicePdf, { id }).slice("/api".length),
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
  useBillingMutation((body: { plan: PlanId; paymentMethodId: string }) => callRoute(billingApi.subscribe, { body }));

export const useConvertTrial = () =>
  useBillingMutation((body: { plan: PlanId; paymentMethodId: string }) => callRoute(trialApi.convert, { body }));

export const useCancelSubscription = () => useBillingMutation(() => callRoute(billingApi.cancel, {}));

export const useResumeSubscription = () => useBillingMutation(() => callRoute(billingApi.resume, {}));

export const useChangePlan = () =>
  useBillingMutation((plan: PlanId) => callRoute(billingApi.changePlan, { body: { plan } }));

export const useUpdatePaymentMethod = () =>
  useBillingMutation(
    async (paymentMethodId: string): Promise<SubscribeAnswer> => ({
      status: "active",
      message: (await callRoute(billingApi.paymentMethod, { body: { paymentMethodId } })).message,
    }),
  );

/** The test provider's card form call: a test card becomes a payment method id. */
export async function createTestPaymentMethod(card: TestCardBody): Promise<string> {
  const answer = await callRoute(testProviderApi.createPaymentMethod, { body: card });
  return answer.id;
}

export async function confirmTestPayment(clientSecret: string, outcome: "complete" | "fail"): Promise<void> {
  await callRoute(testProviderApi.confirmPayment, { body: { client_secret: clientSecret, outcome } });
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
