import { Form } from "@remix-run/react";
import type { PayChoices } from "~/services/purchases/invoices.server";
import { BUYING_POWER_LABEL } from "~/services/auctions/rules";
import { formatUsd, fromCents } from "~/utils/money";
import { payWays } from "~/services/purchases/pay-words";

const card = "rounded-md border border-slate-200 bg-white p-3";
const button =
  "w-full rounded-lg px-4 py-2.5 text-sm font-bold disabled:opacity-60 focus-visible:outline focus-visible:outline-2";

/**
 * The invoice's choice of how to pay, as the transport checkout asks it (record 3313): from the
 * deposit (its free part first, any rest through the gateway) or all through the gateway, each
 * with the buying power it leaves. Two plain forms: the deposit is used only when its button is
 * pressed. Document posts: the answer may be a redirect to the payment provider.
 */
export function PayChoice({
  totalCents,
  choices,
  testMode,
  busy,
}: {
  totalCents: number;
  choices: PayChoices;
  testMode: boolean;
  busy: boolean;
}) {
  const { deposit, gateway } = choices;
  const gatewayName = testMode ? "Test Gateway" : "PayPal";
  return (
    <>
      <p className="mt-2 text-sm">
        How do you want to pay {formatUsd(totalCents, "cents")}? {BUYING_POWER_LABEL} now:{" "}
        <strong data-testid="buying-power-now">
          {formatUsd(choices.buyingPowerNowCents, "cents")}
        </strong>
        .
      </p>
      {/* the same words the e-mails use (record 3512) */}
      <p className="mt-1 text-sm text-slate-700" data-testid="how-to-pay">
        Choose how to pay: {payWays(testMode)}.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div className={card}>
          <h3 className="text-sm font-bold">From your deposit</h3>
          {deposit.depositCents > 0 ? (
            <Form method="post" reloadDocument className="mt-2 space-y-2">
              <input type="hidden" name="intent" value="pay" />
              <input type="hidden" name="source" value="deposit" />
              <input type="hidden" name="amount" value={fromCents(deposit.gatewayCents)} />
              <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
                <dt>From your deposit</dt>
                <dd className="text-right tabular-nums" data-testid="deposit-part">
                  {formatUsd(deposit.depositCents, "cents")}
                </dd>
                <dt>{testMode ? "Through the test gateway" : "Through PayPal"}</dt>
                <dd className="text-right tabular-nums" data-testid="gateway-part">
                  {formatUsd(deposit.gatewayCents, "cents")}
                </dd>
              </dl>
              <button
                type="submit"
                disabled={busy}
                className={`${button} border border-brand-700 text-brand-700 hover:bg-brand-50`}
              >
                {deposit.gatewayCents === 0
                  ? `Pay ${formatUsd(deposit.depositCents, "cents")} from my deposit`
                  : `Pay ${formatUsd(deposit.depositCents, "cents")} from my deposit and the rest (${formatUsd(deposit.gatewayCents, "cents")}) through the gateway`}
              </button>
              <p className="text-xs text-slate-700" data-testid="after-deposit">
                {BUYING_POWER_LABEL} afterwards: {formatUsd(deposit.afterCents, "cents")}
                {deposit.afterCents === choices.buyingPowerNowCents
                  ? " (unchanged: this invoice already holds it)"
                  : ""}
                . Your deposit goes down by {formatUsd(deposit.depositCents, "cents")}.
              </p>
            </Form>
          ) : (
            <p className="mt-2 text-sm text-slate-700" data-testid="after-deposit">
              Your deposit has nothing free to put toward this invoice.
            </p>
          )}
        </div>
        <div className={card}>
          <h3 className="text-sm font-bold">Through the gateway</h3>
          <Form method="post" reloadDocument className="mt-2 space-y-2">
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="source" value="gateway" />
            <input type="hidden" name="amount" value={fromCents(gateway.gatewayCents)} />
            <button
              type="submit"
              disabled={busy}
              className={`${button} bg-[#ffc439] text-slate-900 hover:brightness-95`}
            >
              Pay {formatUsd(gateway.gatewayCents, "cents")} with {gatewayName}
            </button>
            <p className="text-xs text-slate-700" data-testid="after-gateway">
              {BUYING_POWER_LABEL} afterwards: {formatUsd(gateway.afterCents, "cents")}. Your
              deposit is not used
              {testMode ? " (TEST MODE: no real money moves)" : ""}.
            </p>
          </Form>
        </div>
      </div>
    </>
  );
}
