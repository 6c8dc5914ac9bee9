import { Form } from "@remix-run/react";
import type { PublicOrder } from "~/services/affiliates/service-order-views.server";
import type { PaymentPreview } from "~/services/affiliates/transport-payments.server";
import { formatUsd } from "~/utils/money";
import { BUYING_POWER_LABEL } from "~/services/auctions/rules";
import { primaryButton, secondaryButton } from "./ui";

/**
 * The buyer's review step before paying: route, service and price, and a choice of how to pay
 * (the deposit or the payment provider), each with the buying power it leaves (record 2753). The
 * price goes with the form and the server checks it.
 */
export function TransportReview({
  order,
  preview,
  error,
  busy,
}: {
  order: PublicOrder;
  preview: PaymentPreview;
  error: string | null;
  busy: boolean;
}) {
  const isExport = order.serviceType === "export";
  return (
    <section
      aria-labelledby="review-heading"
      className="mt-6 rounded-lg border border-brand-200 bg-brand-50 p-4"
    >
      <h2 id="review-heading" className="text-lg font-bold">
        Review and pay
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">Service</dt>
          <dd className="font-medium">
            {isExport ? "Export (international)" : "Shipping (domestic)"}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Route</dt>
          <dd className="font-medium">
            {order.pickupYard ? `${order.pickupYard}, ` : ""}
            {order.pickupLocation} → {order.deliveryLocation}
            {isExport && order.destinationCountry ? ` (to ${order.destinationCountry})` : ""}
          </dd>
        </div>
        {order.distanceMiles ? (
          <div>
            <dt className="text-slate-600">Distance</dt>
            <dd className="font-medium">{order.distanceMiles.toLocaleString("en-US")} miles</dd>
          </div>
        ) : null}
        <div>
          <dt className="text-slate-600">Price</dt>
          <dd className="text-base font-bold">{formatUsd(preview.price)}</dd>
        </div>
      </dl>
      <p className="mt-3 text-sm">
        How do you want to pay {formatUsd(preview.price)}? {BUYING_POWER_LABEL} now:{" "}
        <strong data-testid="buying-power-now">{formatUsd(preview.available)}</strong>.
      </p>
      {error ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {/* One form, two buttons: the deposit is used only when that button is pressed. */}
      <Form method="post" className="mt-3 grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="pay" />
        <input type="hidden" name="price" value={preview.price} />
        <div className="rounded-md border border-slate-200 bg-white p-3">
          {preview.afterDeposit !== null ? (
            <>
              <button
                type="submit"
                name="source"
                value="deposit"
                className={secondaryButton}
                disabled={busy}
              >
                Pay {formatUsd(preview.price)} from my deposit
              </button>
              <p className="mt-2 text-xs text-slate-700" data-testid="after-deposit">
                {BUYING_POWER_LABEL} afterwards: {formatUsd(preview.afterDeposit)}. The deposit you
                keep for bidding goes down by the price.
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-700" data-testid="after-deposit">
              Your available deposit ({formatUsd(preview.available)}) does not cover it.
            </p>
          )}
        </div>
        <div className="rounded-md border border-slate-200 bg-white p-3">
          <button
            type="submit"
            name="source"
            value="gateway"
            className={primaryButton}
            disabled={busy}
          >
            {busy
              ? "Paying…"
              : `Pay ${formatUsd(preview.price)} ${preview.testMode ? "with Test Gateway" : "with PayPal"}`}
          </button>
          <p className="mt-2 text-xs text-slate-700" data-testid="after-gateway">
            {BUYING_POWER_LABEL} stays {formatUsd(preview.afterGateway)}
            {preview.testMode ? " (TEST MODE: no real money moves)" : ""}.
          </p>
        </div>
      </Form>
      <p className="mt-2 text-xs text-slate-600">
        Providers see the job on the board once it is paid.
      </p>
    </section>
  );
}
