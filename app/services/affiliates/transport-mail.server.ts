// The buyer's transport e-mails (docs/decisions/2754): claimed by a provider, delivered (topic
// "transport"), and the receipt once it is paid (topic "paid"). Queued in the transaction that
// made each true, once per order and kind.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { env } from "~/platform/env.server";
import { queueMail } from "~/platform/mail/outbox.server";
import { formatUsd } from "~/utils/money";

export type TransportMailKind = "claimed" | "delivered" | "paid";

type OrderRow = {
  id: string;
  requested_by: string | null;
  service_type: "shipping" | "export";
  vehicle_label: string;
  pickup_city: string;
  pickup_state: string;
  pickup_yard: string | null;
  delivery_city: string | null;
  delivery_state: string | null;
  export_port: string | null;
  destination_country: string | null;
  payout: string;
  company_name: string | null;
  source: "deposit" | "gateway" | null;
};

/** Queues the `kind` e-mail of a buyer's transport order to that buyer; null when none is due. */
export async function queueTransportMail(
  kind: TransportMailKind,
  orderId: string,
  transaction: Transaction,
) {
  const [order] = await sequelize.query<OrderRow>(
    `SELECT s.id, s.requested_by, s.service_type, s.vehicle_label, s.pickup_city, s.pickup_state,
            s.pickup_yard, s.delivery_city, s.delivery_state, s.export_port,
            s.destination_country, s.payout::text AS payout, a.company_name,
            (SELECT c.source FROM service_order_charges c WHERE c.service_order_id = s.id
              ORDER BY c.id LIMIT 1) AS source
       FROM service_orders s
       LEFT JOIN affiliate_applications a ON a.user_id = s.claimed_by
      WHERE s.id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  if (!order?.requested_by) return null;
  const job = order.service_type === "export" ? "export" : "shipping";
  const from = `${order.pickup_yard ? `${order.pickup_yard}, ` : ""}${order.pickup_city}, ${order.pickup_state}`;
  const to =
    order.service_type === "export"
      ? `${order.export_port ?? "the port"}${order.destination_country ? ` (to ${order.destination_country})` : ""}`
      : `${order.delivery_city}, ${order.delivery_state}`;
  const provider = order.company_name ?? "An approved provider";
  const url = `${new URL(env().APP_URL).origin}/service-orders/${order.id}`;
  const content = {
    claimed: {
      subject: `Transport claimed: ${order.vehicle_label}`,
      paragraphs: [
        `${provider} claimed your ${job} job for the ${order.vehicle_label}: ${from} → ${to}.`,
        "They will be in touch to arrange the pickup.",
      ],
    },
    delivered: {
      subject: `Delivered: ${order.vehicle_label}`,
      paragraphs: [
        `${provider} marked your ${job} job for the ${order.vehicle_label} as delivered: ${from} → ${to}.`,
      ],
    },
    paid: {
      subject: `Receipt: transport for the ${order.vehicle_label}, ${formatUsd(order.payout)}`,
      paragraphs: [
        `We received ${formatUsd(order.payout)} for your ${job} job (${from} → ${to}), paid once ${order.source === "deposit" ? "from your deposit" : "through the payment provider"}.`,
        "Approved providers can now claim it.",
      ],
    },
  }[kind];
  return queueMail(
    {
      userId: order.requested_by,
      topic: kind === "paid" ? "paid" : "transport",
      subject: content.subject,
      content: { paragraphs: content.paragraphs, action: { label: "See the order", url } },
      dedupeKey: `transport-${kind}:${order.id}`,
    },
    transaction,
  );
}
