// Reading transport orders: the public view of an order, the board's and a provider's lists, the
// order page, a lot's orders, and the paid purchases a buyer can ask transport for.
import { Op, type WhereOptions } from "sequelize";
import {
  ServiceOrder,
  type OrderPaymentStatus,
  type OrderStatus,
  type ServiceType,
  type VehicleType,
} from "~/models/affiliate.server";
import { Lot, Purchase } from "~/models/auction.server";
import { User } from "~/models/user.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import { ORDER_NOT_FOUND } from "~/services/affiliates/messages";
import { PROGRESS, splitPayout } from "~/services/affiliates/rules";
import { env } from "~/platform/env.server";
import { centsToDecimal } from "~/utils/money";
import type { ServiceOrderFilters } from "~/services/affiliates/schemas";
import { escapeLike } from "~/utils/escape-like";
import { lotLabel } from "./service-order-vehicles.server";

export type PublicOrder = {
  id: string;
  serviceType: ServiceType;
  lotId: string | null;
  vehicleLabel: string;
  vehicleType: VehicleType | null;
  /** The auction house and ITS lot number ("Copart lot 71234561"), not our lot id. */
  lotReference: string | null;
  /** The body type decoded from the VIN, as the decoder names it. */
  bodyStyle: string | null;
  pickupLocation: string;
  pickupYard: string | null;
  deliveryLocation: string;
  exportPort: string | null;
  destinationCountry: string | null;
  distanceMiles: number | null;
  estimatedPayout: string;
  platformFee: string;
  netPayout: string;
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  progress: number;
  claimedByMe: boolean;
  requestedByMe: boolean;
  createdAt: string;
  claimedAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
};

export type PrivateOrderDetails = {
  /**
   * Who asked for the job. The carrier that claimed it gets the buyer's first name only, never
   * an e-mail or phone (docs/decisions/3530); the buyer and the admins see the e-mail.
   */
  requester: { name: string; email: string | null } | null;
};

type Viewer = { id: string; role: string } | null;

export function toPublicOrder(order: ServiceOrder, viewer: Viewer): PublicOrder {
  const split = splitPayout(order.payout, env().PLATFORM_FEE_PERCENT);
  const exportPort =
    order.serviceType === "export" ? `${order.exportPort}, ${order.exportPortState}` : null;
  return {
    id: String(order.id),
    serviceType: order.serviceType,
    lotId: order.lotId === null ? null : String(order.lotId),
    vehicleLabel: order.vehicleLabel,
    vehicleType: order.vehicleType,
    lotReference: order.lotNumber
      ? `${order.auctionHouse === "iaai" ? "IAAI" : "Copart"} lot ${order.lotNumber}`
      : null,
    bodyStyle: order.bodyStyle,
    pickupLocation: `${order.pickupCity}, ${order.pickupState}`,
    pickupYard: order.pickupYard,
    deliveryLocation:
      exportPort ??
      (order.deliveryZip
        ? `${order.deliveryZip} (${order.deliveryCity}, ${order.deliveryState} area)`
        : `${order.deliveryCity}, ${order.deliveryState}`),
    exportPort,
    destinationCountry: order.destinationCountry,
    distanceMiles: order.distanceMiles,
    estimatedPayout: order.payout,
    platformFee: centsToDecimal(split.feeCents),
    netPayout: centsToDecimal(split.netCents),
    status: order.status,
    paymentStatus: order.paymentStatus,
    progress: PROGRESS[order.status as OrderStatus],
    claimedByMe: viewer !== null && order.claimedBy === viewer.id,
    requestedByMe: viewer !== null && order.requestedBy === viewer.id,
    createdAt: order.createdAt.toISOString(),
    claimedAt: order.claimedAt?.toISOString() ?? null,
    startedAt: order.startedAt?.toISOString() ?? null,
    completedAt: order.completedAt?.toISOString() ?? null,
  };
}

/** The buyer's paid purchases (or only the one of `lotId`), with the orders already asked for. */
export async function listPurchasesForService(userId: string, options: { lotId?: string } = {}) {
  if (options.lotId !== undefined && !/^\d{1,18}$/.test(options.lotId)) return [];
  const purchases = await Purchase.findAll({
    where: {
      userId,
      status: "paid",
      ...(options.lotId !== undefined ? { lotId: options.lotId } : {}),
    },
    include: [{ model: Lot, required: true }],
    order: [["createdAt", "DESC"]],
    limit: 50,
  });
  const orders = await ServiceOrder.findAll({
    where: { purchaseId: purchases.map((p) => p.id) },
  });
  return purchases.map((purchase) => {
    const lot = (purchase as Purchase & { Lot: Lot }).Lot;
    return {
      purchaseId: String(purchase.id),
      lotId: String(lot.id),
      vehicleLabel: lotLabel(lot),
      pickupLocation: `${lot.locationCity}, ${lot.locationState}`,
      pickupYard: lot.yardName,
      orders: orders
        .filter((order) => String(order.purchaseId) === String(purchase.id))
        .map((order) => ({
          id: String(order.id),
          serviceType: order.serviceType,
          status: order.status,
          paymentStatus: order.paymentStatus,
        })),
    };
  });
}

/** Whether the user has paid for anything that could be shipped (the board links to the request page). */
export async function hasPurchasesForService(userId: string) {
  return (await Purchase.count({ where: { userId, status: "paid" } })) > 0;
}

function filterWhere(filters: Partial<ServiceOrderFilters>): WhereOptions<ServiceOrder> {
  const where: Record<string | symbol, unknown> = {};
  if (filters.serviceType) where.serviceType = filters.serviceType;
  if (filters.destination) {
    const wanted = filters.destination === "domestic" ? "shipping" : "export";
    if (filters.serviceType && filters.serviceType !== wanted) where.id = null;
    else where.serviceType = wanted;
  }
  if (filters.pickupState) where.pickupState = filters.pickupState;
  if (filters.vehicleType) where.vehicleType = filters.vehicleType;
  if (filters.q) {
    const like = `%${escapeLike(filters.q)}%`;
    where[Op.or] = [
      { vehicleLabel: { [Op.iLike]: like } },
      { pickupCity: { [Op.iLike]: like } },
      { deliveryCity: { [Op.iLike]: like } },
      { exportPort: { [Op.iLike]: like } },
      { destinationCountry: { [Op.iLike]: like } },
    ];
  }
  return where as WhereOptions<ServiceOrder>;
}

/** Open orders matching the board's filters, newest first. */
export async function listOpenOrders(filters: Partial<ServiceOrderFilters> = {}, limit = 100) {
  return ServiceOrder.findAll({
    // a buyer's job is on the board once it is paid (docs/decisions/1751)
    where: { ...filterWhere(filters), status: "open", paymentStatus: { [Op.ne]: "unpaid" } },
    order: [
      ["createdAt", "DESC"],
      ["id", "DESC"],
    ],
    limit,
  });
}

/** The affiliate's claimed orders, newest first. */
export async function listAffiliateOrders(userId: string, limit = 200) {
  return ServiceOrder.findAll({
    where: { claimedBy: userId },
    order: [
      ["claimedAt", "DESC"],
      ["id", "DESC"],
    ],
    limit,
  });
}

export async function countAffiliateOrders(userId: string) {
  return ServiceOrder.count({ where: { claimedBy: userId } });
}

/** The order page: anyone signed in sees the job; the buyer only the claimer and admins. */
export async function getOrderForViewer(orderId: string, viewer: { id: string; role: string }) {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const order = await ServiceOrder.findByPk(orderId, {
    include: [{ model: User, as: "requester", attributes: ["email", "firstName", "lastName"] }],
  });
  if (!order) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const maySeePrivate =
    viewer.role === "admin" || order.claimedBy === viewer.id || order.requestedBy === viewer.id;
  // an unpaid job is not on the board yet: only its buyer and the admins can open it
  if (order.paymentStatus === "unpaid" && !maySeePrivate)
    throw new AffiliateError(404, ORDER_NOT_FOUND);
  // An open order is on the board for everyone; once claimed it belongs to its claimer, its
  // buyer and the admins, and reads as not found to anyone else (ids can be guessed).
  if (order.status !== "open" && !maySeePrivate) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const requester = (order as ServiceOrder & { requester?: User | null }).requester;
  const seesContact = viewer.role === "admin" || order.requestedBy === viewer.id;
  const details: PrivateOrderDetails | null = maySeePrivate
    ? {
        requester: requester
          ? seesContact
            ? {
                name:
                  [requester.firstName, requester.lastName].filter(Boolean).join(" ") ||
                  requester.email,
                email: requester.email,
              }
            : { name: requester.firstName?.trim() || "The buyer", email: null }
          : null,
      }
    : null;
  return { order: toPublicOrder(order, viewer), details };
}

/** Whether `viewer` may open the order's page (see getOrderForViewer). */
export async function canViewOrder(orderId: string, viewer: { id: string; role: string }) {
  try {
    await getOrderForViewer(orderId, viewer);
    return true;
  } catch (error) {
    if (error instanceof AffiliateError) return false;
    throw error;
  }
}

export type LotOrderSummary = {
  id: string;
  serviceType: ServiceType;
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  progress: number;
  deliveryLocation: string;
  price: string;
};

/**
 * The transport orders of a lot, oldest first (for the purchase page); pass `requestedBy` to keep
 * only that buyer's. A malformed id answers none.
 */
export async function listOrdersForLot(
  lotId: string,
  requestedBy?: string,
): Promise<LotOrderSummary[]> {
  if (!/^\d{1,18}$/.test(lotId)) return [];
  const orders = await ServiceOrder.findAll({
    where: { lotId, ...(requestedBy ? { requestedBy } : {}) },
    order: [["id", "ASC"]],
    limit: 20,
  });
  return orders.map((order) => ({
    id: String(order.id),
    serviceType: order.serviceType,
    status: order.status,
    paymentStatus: order.paymentStatus,
    progress: PROGRESS[order.status as OrderStatus],
    deliveryLocation:
      order.serviceType === "export"
        ? `${order.exportPort}, ${order.exportPortState}`
        : `${order.deliveryCity}, ${order.deliveryState}`,
    price: order.payout,
  }));
}
