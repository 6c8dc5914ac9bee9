import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import {
  formatOrderDate,
  OrderActions,
  ProgressBar,
  StatusBadge,
} from "~/components/affiliates/order-card";
import { Badge } from "~/components/affiliates/ui";
import { isUserError } from "~/utils/user-error";
import { messageAsToast, ORDER_STEP_DONE } from "~/modules/affiliates/messages";
import {
  canViewOrder,
  getOrderForViewer,
  runOrderStep,
} from "~/modules/affiliates/service-orders.server";
import { requireUser } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { safeRedirect } from "~/http/http.server";
import { formatUsd } from "~/utils/money";
import { OrderIntentSchema } from "~/modules/affiliates/schemas";
import { vehicleTypeLabel } from "~/modules/affiliates/rules";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.order.vehicleLabel} · Service Order · BidYard`
      : "Service Order · BidYard",
  },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    return await getOrderForViewer(params.id ?? "", user);
  } catch (error) {
    if (isUserError(error)) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

/** The form path of every step (claim, start, complete), with or without JavaScript. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const orderId = params.id ?? "";
  const parsed = OrderIntentSchema.safeParse(Object.fromEntries(await request.formData()));
  const back = safeRedirect(
    parsed.success ? parsed.data.redirectTo : null,
    `/service-orders/${orderId}`,
  );
  if (!parsed.success)
    return redirectWithToast(back, { title: "Unknown action", type: "error" }, { status: 303 });
  const step = parsed.data.intent;
  try {
    await runOrderStep(user.id, orderId, step);
  } catch (error) {
    if (!isUserError(error)) throw error;
    const toast = messageAsToast(error.message, "Could not update the order");
    // A lost claim leaves an order this person may no longer open: back to the board instead.
    const to =
      back === `/service-orders/${orderId}` && !(await canViewOrder(orderId, user))
        ? "/service-orders"
        : back;
    return redirectWithToast(to, { ...toast, type: "error" }, { status: 303 });
  }
  return redirectWithToast(back, { ...ORDER_STEP_DONE[step], type: "success" }, { status: 303 });
}

export default function ServiceOrderPage() {
  const { order, details } = useLoaderData<typeof loader>();
  const location = useLocation();
  const isExport = order.serviceType === "export";
  const canAct = order.status === "open" || order.claimedByMe;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <Link to="/service-orders" className="text-sm font-semibold text-brand-700 hover:underline">
        ← Service Orders
      </Link>
      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-2xl font-bold">{order.vehicleLabel}</h1>
            <p className="text-sm text-slate-500">Order #{order.id}</p>
          </div>
          <div className="flex gap-2">
            <Badge tone={isExport ? "purple" : "blue"}>{isExport ? "Export" : "Shipping"}</Badge>
            <StatusBadge status={order.status} />
          </div>
        </div>
        <div className="mt-4">
          <ProgressBar value={order.progress} />
        </div>
        <dl className="mt-6 grid gap-x-6 gap-y-3 sm:grid-cols-2">
          <Item label="Estimated payout" value={formatUsd(order.estimatedPayout)} />
          <Item
            label="You receive"
            value={`${formatUsd(order.netPayout)} (after the ${formatUsd(order.platformFee)} platform fee)`}
          />
          <Item label="Pickup" value={order.pickupLocation} />
          {order.pickupYard ? <Item label="Pickup yard" value={order.pickupYard} /> : null}
          <Item label={isExport ? "Export Port" : "Delivery"} value={order.deliveryLocation} />
          {isExport ? (
            <Item label="Destination country" value={order.destinationCountry ?? ""} />
          ) : (
            <Item
              label="Distance"
              value={`${(order.distanceMiles ?? 0).toLocaleString("en-US")} miles`}
            />
          )}
          {order.vehicleType ? (
            <Item label="Vehicle type" value={vehicleTypeLabel(order.vehicleType)} />
          ) : null}
          {order.lotId ? <Item label="Lot" value={`#${order.lotId}`} /> : null}
          <Item label="Created" value={formatOrderDate(order.createdAt)} />
          {order.claimedAt ? (
            <Item label="Claimed" value={formatOrderDate(order.claimedAt)} />
          ) : null}
          {order.startedAt ? (
            <Item label="Started" value={formatOrderDate(order.startedAt)} />
          ) : null}
          {order.completedAt ? (
            <Item label="Completed" value={formatOrderDate(order.completedAt)} />
          ) : null}
        </dl>
        {details ? (
          <section className="mt-6 rounded-lg bg-slate-50 p-4" aria-labelledby="customer-heading">
            <h2 id="customer-heading" className="font-semibold">
              Customer
            </h2>
            {details.requester ? (
              <p className="mt-1 text-sm">
                {details.requester.name} · {details.requester.email}
              </p>
            ) : (
              <p className="mt-1 text-sm text-slate-600">Created by BidYard staff.</p>
            )}
          </section>
        ) : null}
        {canAct ? (
          <div className="mt-6 flex flex-wrap gap-2">
            <OrderActions
              order={order}
              showDetails={false}
              redirectTo={`${location.pathname}${location.search}`}
            />
          </div>
        ) : order.status !== "open" ? (
          <p className="mt-6 text-sm text-slate-600">This order was claimed by another provider.</p>
        ) : null}
      </div>
    </div>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium">{value}</dd>
    </div>
  );
}
