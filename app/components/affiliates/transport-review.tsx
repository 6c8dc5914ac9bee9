import { Form } from "@remix-run/react";
import type { PublicOrder } from "~/services/affiliates/service-orders.server";
import type { PaymentPreview } from "~/services/affiliates/transport-payments.server";
import { formatUsd } from "~/utils/money";
import { primaryButton } from "./ui";

/**
 * The buyer's review step before paying: route, service and price, how it will be paid, and one
 * "Confirm and pay" form (the price goes with it and the server checks it).
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
        {preview.fromDeposit
          ? `Paid from your deposit: ${formatUsd(preview.available)} is available.`
          : `Your available deposit (${formatUsd(preview.available)}) does not cover it, so you pay through ${preview.testMode ? "the test gateway (TEST MODE)" : "PayPal"}.`}
      </p>
      {error ? (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="pay" />
        <input type="hidden" name="price" value={preview.price} />
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Paying…" : `Confirm and pay ${formatUsd(preview.price)}`}
        </button>
      </Form>
      <p className="mt-2 text-xs text-slate-600">
        Providers see the job on the board once it is paid.
      </p>
    </section>
  );
}
