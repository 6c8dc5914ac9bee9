import { PayPalButtons, PayPalScriptProvider } from "@paypal/react-paypal-js";
import type { Notice } from "./notice";
import { LOGIN_REDIRECT_DELAY_MS } from "~/services/accounts/sign-in";
import { DEPOSIT_MESSAGES } from "~/services/deposits/rules";

// A non-OK answer becomes an Error "<status>: <body text or status text>", so the buttons can
// tell a 401 (signed out) from a refusal and show the server's own message.
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
  description: DEPOSIT_MESSAGES.confirmFailed,
  type: "error",
};

/**
 * The PayPal Smart Buttons: create the order on our server, let the payer approve it at PayPal,
 * then confirm it on our server (which credits what PayPal captured). The SDK script loads only
 * on the deposit page.
 */
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
