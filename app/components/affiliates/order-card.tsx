import { Link, useFetcher } from "@remix-run/react";
import { LocalTime } from "~/components/local-time";
import type { PublicOrder } from "~/services/affiliates/service-order-views.server";
import { claimBlocker, type ProviderStatus } from "~/services/affiliates/status";
import { formatUsd } from "~/utils/money";
import { Badge, primaryButton, secondaryButton } from "./ui";

const STATUS_LABEL: Record<PublicOrder["status"], string> = {
  open: "Open",
  claimed: "Claimed",
  in_progress: "In Progress",
  completed: "Completed",
};
const STATUS_TONE = {
  open: "blue",
  claimed: "yellow",
  in_progress: "purple",
  completed: "green",
} as const;

export function StatusBadge({ status }: { status: PublicOrder["status"] }) {
  return <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}

export function ProgressBar({ value }: { value: number }) {
  return (
    <div>
      <div className="flex justify-between text-xs text-slate-500">
        <span>Progress</span>
        <span>{value}%</span>
      </div>
      <div
        className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Order progress"
        aria-valuenow={value}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

/** One step button as a real form post; with JS it runs in a fetcher and shows its pending text. */
export function OrderStepButton({
  order,
  intent,
  label,
  pendingLabel,
  redirectTo,
  primary = true,
}: {
  order: PublicOrder;
  intent: "claim" | "start" | "complete";
  label: string;
  pendingLabel: string;
  redirectTo: string;
  primary?: boolean;
}) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={`/service-orders/${order.id}`}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        disabled={busy}
        className={primary ? primaryButton : secondaryButton}
        aria-label={`${label}: ${order.vehicleLabel}`}
      >
        {busy ? pendingLabel : label}
      </button>
    </fetcher.Form>
  );
}

export function OrderActions({
  order,
  provider,
  redirectTo,
  showDetails = true,
}: {
  order: PublicOrder;
  /** The viewer as a provider: no "Claim Job" they cannot use (docs/decisions/2704). */
  provider: ProviderStatus;
  redirectTo: string;
  showDetails?: boolean;
}) {
  const details = (label: string) =>
    showDetails ? (
      <Link
        to={`/service-orders/${order.id}`}
        className={secondaryButton}
        aria-label={`${label}: ${order.vehicleLabel}`}
      >
        {label}
      </Link>
    ) : null;
  switch (order.status) {
    case "open": {
      const blocker = claimBlocker(provider, order);
      return (
        <>
          {details("Details")}
          {blocker ? (
            <p className="w-full text-sm text-slate-600" data-testid="claim-blocker">
              {blocker}
              {/* on the order's own page; the board has the button in its header */}
              {!showDetails &&
              !order.requestedByMe &&
              (provider.state === "none" || provider.state === "rejected") ? (
                <>
                  {" "}
                  <Link
                    to="/affiliate-registration"
                    className="font-semibold text-brand-700 underline"
                  >
                    Become a Service Provider
                  </Link>
                </>
              ) : null}
            </p>
          ) : (
            <OrderStepButton
              order={order}
              intent="claim"
              label="Claim Job"
              pendingLabel="Claiming..."
              redirectTo={redirectTo}
            />
          )}
        </>
      );
    }
    case "claimed":
      return (
        <>
          {details("View Details")}
          <OrderStepButton
            order={order}
            intent="start"
            label="Start Service"
            pendingLabel="Starting..."
            redirectTo={redirectTo}
          />
        </>
      );
    case "in_progress":
      return (
        <OrderStepButton
          order={order}
          intent="complete"
          label="Mark Complete"
          pendingLabel="Completing..."
          redirectTo={redirectTo}
        />
      );
    case "completed":
      return (
        <button type="button" disabled className={secondaryButton}>
          Completed
        </button>
      );
  }
}

export function OrderCard({
  order,
  provider,
  redirectTo,
}: {
  order: PublicOrder;
  provider: ProviderStatus;
  redirectTo: string;
}) {
  const isExport = order.serviceType === "export";
  return (
    <article
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      aria-labelledby={`order-${order.id}-title`}
    >
      <div className="flex items-start justify-between gap-2">
        <h3 id={`order-${order.id}-title`} className="font-semibold">
          {order.vehicleLabel}
        </h3>
        <Badge tone={isExport ? "purple" : "blue"}>{isExport ? "Export" : "Shipping"}</Badge>
      </div>
      <div>
        <p className="text-xs text-slate-500">Estimated payout</p>
        <p className="text-xl font-bold text-green-700">{formatUsd(order.estimatedPayout)}</p>
        <p className="text-xs text-slate-500">
          You receive {formatUsd(order.netPayout)} after the {formatUsd(order.platformFee)} platform
          fee
        </p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">Pickup</dt>
        <dd>{order.pickupLocation}</dd>
        <dt className="text-slate-500">{isExport ? "Export Port" : "Delivery"}</dt>
        <dd>
          {order.deliveryLocation}
          {isExport && order.destinationCountry ? ` → ${order.destinationCountry}` : ""}
        </dd>
        {!isExport && order.distanceMiles !== null ? (
          <>
            <dt className="text-slate-500">Distance</dt>
            <dd>{order.distanceMiles.toLocaleString("en-US")} miles</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Created</dt>
        <dd>
          <LocalTime at={order.createdAt} style="day" />
        </dd>
      </dl>
      <div className="flex items-center justify-between">
        <StatusBadge status={order.status} />
      </div>
      <ProgressBar value={order.progress} />
      <div className="mt-auto flex flex-wrap gap-2">
        <OrderActions order={order} provider={provider} redirectTo={redirectTo} />
      </div>
    </article>
  );
}
