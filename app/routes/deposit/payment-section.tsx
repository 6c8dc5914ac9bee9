import { Form, Link } from "@remix-run/react";
import { lazy, Suspense } from "react";
import type { Notice } from "~/components/deposit/notice";
import { formatUsd } from "~/utils/money";

const PayPalDepositButtons = lazy(() =>
  import("~/components/deposit/paypal-buttons").then((m) => ({ default: m.PayPalDepositButtons })),
);

/**
 * Paying the chosen amount: PayPal's buttons with JavaScript and a client id, otherwise a plain
 * form that redirects to the provider's (or the test gateway's) approval page.
 */
export function PaymentSection({
  amount,
  testMode,
  paypalClientId,
  hydrated,
  busy,
  onNotice,
  onDeposited,
}: {
  amount: string;
  testMode: boolean;
  paypalClientId: string | null;
  hydrated: boolean;
  busy: boolean;
  onNotice: (notice: Notice) => void;
  onDeposited: () => void;
}) {
  return (
    <section
      id="payment"
      aria-labelledby="payment-heading"
      className="mt-8 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="payment-heading" className="text-lg font-bold">
          PayPal
        </h2>
        {testMode ? (
          <span className="rounded bg-accent-500 px-1.5 py-0.5 text-xs font-bold">TEST MODE</span>
        ) : null}
      </div>
      <p className="mt-2">
        Deposit Amount: <strong>{formatUsd(amount)}</strong>
      </p>
      <div className="mt-4 max-w-md">
        {hydrated && paypalClientId ? (
          <Suspense fallback={<p className="text-sm text-slate-500">Loading PayPal…</p>}>
            <PayPalDepositButtons
              clientId={paypalClientId}
              amount={amount}
              onNotice={onNotice}
              onDeposited={onDeposited}
            />
          </Suspense>
        ) : (
          <Form method="post" action="/deposit">
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="amount" value={amount} />
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-lg bg-[#ffc439] px-5 py-3 font-bold text-slate-900 hover:brightness-95 disabled:opacity-60"
            >
              {testMode ? "Pay with Test Gateway" : "Pay with PayPal"}
            </button>
          </Form>
        )}
      </div>
      <Link to="/deposit" className="mt-3 inline-block text-sm text-brand-700 underline">
        Change amount
      </Link>
    </section>
  );
}
