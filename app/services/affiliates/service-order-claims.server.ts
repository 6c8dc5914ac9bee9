// A provider claims an open transport order.
import { Op, QueryTypes } from "sequelize";
import { ServiceOrder } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import {
  APPROVAL_REQUIRED,
  CLAIM_FAILED,
  ORDER_NOT_FOUND,
  OWN_ORDER,
} from "~/services/affiliates/messages";
import { notify } from "~/platform/notifications.server";
import { queueTransportMail } from "./transport-mail.server";

/**
 * Claims an open order for an approved affiliate with ONE conditional UPDATE, so of many
 * simultaneous claims exactly one changes the row; the rest see no row and get a 409.
 */
export async function claimOrder(userId: string, orderId: string) {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<{ id: string; requested_by: string | null }>(
      `UPDATE service_orders SET status = 'claimed', claimed_by = :userId, claimed_at = now(),
              updated_at = now()
        WHERE id = :orderId AND status = 'open' AND payment_status <> 'unpaid'
          AND requested_by IS DISTINCT FROM :userId
          AND EXISTS (SELECT 1 FROM affiliate_applications
                       WHERE user_id = :userId AND status = 'approved')
       RETURNING id, requested_by`,
      { replacements: { userId, orderId }, type: QueryTypes.SELECT, transaction },
    );
    if (rows.length === 0) {
      const [approved] = await sequelize.query<{ ok: boolean }>(
        "SELECT true AS ok FROM affiliate_applications WHERE user_id = :userId AND status = 'approved'",
        { replacements: { userId }, type: QueryTypes.SELECT, transaction },
      );
      if (!approved) throw new AffiliateError(403, APPROVAL_REQUIRED);
      const order = await ServiceOrder.findOne({
        where: { id: orderId, paymentStatus: { [Op.ne]: "unpaid" } },
        attributes: ["requestedBy"],
        transaction,
      });
      if (!order) throw new AffiliateError(404, ORDER_NOT_FOUND);
      // a buyer who is also a provider does not carry their own vehicle for a payout
      if (order.requestedBy === userId) throw new AffiliateError(403, OWN_ORDER);
      throw new AffiliateError(409, CLAIM_FAILED);
    }
    if (rows[0].requested_by) {
      await notify(
        rows[0].requested_by,
        {
          kind: "service_order_claimed",
          title: "Transport claimed",
          body: "An approved provider claimed your transport job and will be in touch.",
          link: `/service-orders/${rows[0].id}`,
        },
        transaction,
      );
      await queueTransportMail("claimed", String(rows[0].id), transaction);
    }
    return (await ServiceOrder.findByPk(orderId, { transaction }))!;
  });
}
