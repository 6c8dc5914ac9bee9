// A claimed transport order moves on: started, then completed (and its payout credited).
import { QueryTypes } from "sequelize";
import { ServiceOrder } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import { ORDER_NOT_FOUND } from "~/services/affiliates/messages";
import { type OrderStep } from "~/services/affiliates/rules";
import { notify } from "~/platform/notifications.server";
import { creditEarnings } from "~/services/affiliates/earnings.server";
import { queueTransportMail } from "./transport-mail.server";
import { claimOrder } from "./service-order-claims.server";

const STEPS = {
  start: { from: "claimed", to: "in_progress", column: "started_at", verb: "started" },
  complete: { from: "in_progress", to: "completed", column: "completed_at", verb: "completed" },
} as const;

/** Moves a claimed order one step forward; only its claimer may, and only from the step before. */
export async function advanceOrder(userId: string, orderId: string, step: keyof typeof STEPS) {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const { from, to, column, verb } = STEPS[step];
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<{ id: string; requested_by: string | null }>(
      `UPDATE service_orders SET status = :to, ${column} = now(), updated_at = now()
        WHERE id = :orderId AND status = :from AND claimed_by = :userId
       RETURNING id, requested_by`,
      { replacements: { userId, orderId, from, to }, type: QueryTypes.SELECT, transaction },
    );
    if (rows.length === 0) {
      const order = await ServiceOrder.findByPk(orderId, { transaction });
      if (!order) throw new AffiliateError(404, ORDER_NOT_FOUND);
      if (order.claimedBy !== userId)
        throw new AffiliateError(403, "Only the provider who claimed this order can update it.");
      throw new AffiliateError(
        409,
        order.status === "completed"
          ? "This order is completed; it cannot change."
          : `This order is ${order.status.replace("_", " ")}; it cannot be ${verb} now.`,
      );
    }
    if (step === "complete") {
      // the same transaction as the one UPDATE that completed it: credited once
      await creditEarnings(transaction, String(rows[0].id));
      if (rows[0].requested_by) {
        await notify(
          rows[0].requested_by,
          {
            kind: "service_order_completed",
            title: "Delivered",
            body: "The provider marked your transport job as delivered.",
            link: `/service-orders/${rows[0].id}`,
          },
          transaction,
        );
        await queueTransportMail("delivered", String(rows[0].id), transaction);
      }
    }
    return (await ServiceOrder.findByPk(orderId, { transaction }))!;
  });
}

/** One step of an order for an affiliate: claim it, or move it on (start, complete). */
export function runOrderStep(userId: string, orderId: string, step: OrderStep) {
  return step === "claim" ? claimOrder(userId, orderId) : advanceOrder(userId, orderId, step);
}
