// A provider's earnings: one credit per completed job, the payout net of the platform fee
// (docs/decisions/0703 for the split, 1751 for the ledger).
import { QueryTypes, type Transaction } from "sequelize";
import { ProviderEarning, ServiceOrder } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { splitPayout } from "~/services/affiliates/rules";
import { env } from "~/platform/env.server";
import { centsToDecimal, fromCents, toCents } from "~/utils/money";

/**
 * Credits the claimer of a just-completed order, inside the transaction that completed it. The
 * completion is one conditional UPDATE that matches once, and the table holds one row per order,
 * so a replayed or concurrent completion can never credit twice.
 */
export async function creditEarnings(transaction: Transaction, orderId: string) {
  const order = await ServiceOrder.findByPk(orderId, { transaction, rejectOnEmpty: true });
  if (order.status !== "completed" || !order.claimedBy) return null;
  const feePercent = env().PLATFORM_FEE_PERCENT;
  const split = splitPayout(order.payout, feePercent);
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO provider_earnings
       (provider_id, service_order_id, gross, platform_fee, net, fee_basis_points)
     VALUES (:providerId, :orderId, :gross, :fee, :net, :basisPoints)
     ON CONFLICT (service_order_id) DO NOTHING RETURNING id`,
    {
      replacements: {
        providerId: order.claimedBy,
        orderId,
        gross: centsToDecimal(split.grossCents),
        fee: centsToDecimal(split.feeCents),
        net: centsToDecimal(split.netCents),
        basisPoints: Math.round(feePercent * 100),
      },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return rows[0]?.id ?? null;
}

export type EarningsStatement = {
  lines: Array<{
    id: string;
    orderId: string;
    vehicleLabel: string;
    route: string;
    completedAt: string;
    gross: string;
    platformFee: string;
    net: string;
  }>;
  totals: { gross: string; platformFee: string; net: string; jobs: number };
};

/** The provider's statement: each credited job (newest first) and the totals of all of them. */
export async function earningsStatement(
  providerId: string,
  limit = 200,
): Promise<EarningsStatement> {
  const [entries, [totals]] = await Promise.all([
    ProviderEarning.findAll({
      where: { providerId },
      include: [{ model: ServiceOrder, required: true }],
      order: [
        ["createdAt", "DESC"],
        ["id", "DESC"],
      ],
      limit,
    }),
    sequelize.query<{ gross: string; fee: string; net: string; jobs: string }>(
      `SELECT coalesce(sum(gross), 0)::numeric(14, 2)::text AS gross,
              coalesce(sum(platform_fee), 0)::numeric(14, 2)::text AS fee,
              coalesce(sum(net), 0)::numeric(14, 2)::text AS net, count(*)::text AS jobs
         FROM provider_earnings WHERE provider_id = :providerId`,
      { replacements: { providerId }, type: QueryTypes.SELECT },
    ),
  ]);
  return {
    lines: entries.map((entry) => {
      const order = (entry as ProviderEarning & { ServiceOrder: ServiceOrder }).ServiceOrder;
      const to =
        order.serviceType === "export"
          ? `${order.exportPort}, ${order.exportPortState}`
          : `${order.deliveryCity}, ${order.deliveryState}`;
      return {
        id: String(entry.id),
        orderId: String(order.id),
        vehicleLabel: order.vehicleLabel,
        route: `${order.pickupCity}, ${order.pickupState} → ${to}`,
        completedAt: (order.completedAt ?? entry.createdAt).toISOString(),
        gross: fromCents(toCents(entry.gross)),
        platformFee: fromCents(toCents(entry.platformFee)),
        net: fromCents(toCents(entry.net)),
      };
    }),
    totals: {
      gross: totals.gross,
      platformFee: totals.fee,
      net: totals.net,
      jobs: Number(totals.jobs),
    },
  };
}
