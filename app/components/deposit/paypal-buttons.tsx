import { PayPalButtons, PayPalScriptProvider } from "@paypal/react-paypal-js";
import type { Notice } from "./notice";
import { LOGIN_REDIRECT_DELAY_MS } from "~/modules/accounts/sign-in";

// SPEC §8: a non-OK answer is an error "<status>: <body text or status text>".
async function postJson(url: string, body?: unknown) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "include",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const text = (await response.text().catch(() => "")) || response.statusText;
    throw new Error(`${response.status}: ${text}`);
  }
  return response.json();
}

const UNAUTHORIZED: Notice = {
  title: "Unauthorized",
  description: "You are logged out. Logging in again...",
  type: "error",
};
const CONFIRM_FAILED: Notice = {
  title: "Error",
  description: "Failed to confirm deposit. Please try again.",
  type: "error",
};

/** The PayPal Smart Buttons (SPEC §4 Deposit flow); the SDK script loads only on this page. */
export function PayPalDepositButtons({
  clientId,
  amount,
  onNotice,
  onDeposited,
}: {
  clientId: string;
  amount: string;
  onNotice: (notice: Notice) => void;
  onDeposited: () => void;
}) {
  const failed = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith("401:")) {
      onNotice(UNAUTHORIZED);
      setTimeout(
        () => window.location.assign("/api/login?returnTo=%2Fdeposit"),
        LOGIN_REDIRECT_DELAY_MS,
      );
    } else {
      onNotice(CONFIRM_FAILED);
    }
  };
  return (
    <PayPalScriptProvider options={{ clientId, currency: "USD", intent: "capture" }}>
      <PayPalButtons
        style={{ layout: "vertical", label: "pay" }}
        forceReRender={[amount]}
        createOrder={async () => {
          const order = await postJson("/paypal/order", {
            amount,
            currency: "USD",
            intent: "CAPTURE",
          });
          return order.id as string;
        }}
        onApprove={async (data) => {
          try {
            await postJson(`/paypal/order/${encodeURIComponent(data.orderID)}/capture`);
            await postJson("/api/confirm-deposit", { orderID: data.orderID, amount });
            onDeposited();
          } catch (error) {
            failed(error);
          }
        }}
        onCancel={(data) => console.info("PayPal payment cancelled", data)}
        onError={(error) => console.error("PayPal error", error)}
      />
    </PayPalScriptProvider>
  );
}
