// The purchase page's transport section: each job the buyer requested for this lot, with where
// it stands and a link to its own page (quote, payment, provider).
import { Link } from "@remix-run/react";
import { OrderProgress, type OrderProgressStatus } from "~/components/affiliates/order-progress";

export type TransportOrder = {
  id: string;
  serviceType: string;
  status: OrderProgressStatus;
  paymentStatus: string;
  deliveryLocation: string;
};

export function TransportOrders({ orders }: { orders: TransportOrder[] }) {
  if (orders.length === 0) return null;
  return (
    <section aria-labelledby="transport-heading" className="mt-6 rounded border bg-white p-4">
      <h2 id="transport-heading" className="text-lg font-bold">
        Transport
      </h2>
      <ul className="mt-2 space-y-4">
        {orders.map((order) => (
          <li key={order.id}>
            <p className="font-semibold">
              <Link to={`/service-orders/${order.id}`} className="text-brand-700 underline">
                {order.serviceType === "export" ? "Export" : "Shipping"} to {order.deliveryLocation}
              </Link>
              {order.paymentStatus === "unpaid" ? (
                <span className="ml-2 text-sm font-normal text-slate-700">(not paid yet)</span>
              ) : null}
            </p>
            <OrderProgress status={order.status} label={`Order ${order.id} progress`} />
          </li>
        ))}
      </ul>
    </section>
  );
}
