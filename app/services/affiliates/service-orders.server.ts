import { Op, QueryTypes, type Transaction, type WhereOptions } from "sequelize";
import {
  findCity,
  findCityByLabel,
  largestCityInState,
  type UsCity,
} from "~/services/affiliates/us-cities";
import {
  ServiceOrder,
  type OrderPaymentStatus,
  type OrderStatus,
  type ServiceType,
  type VehicleType,
} from "~/models/affiliate.server";
import { Lot, Purchase } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import {
  APPROVAL_REQUIRED,
  CLAIM_FAILED,
  ORDER_NOT_FOUND,
  OWN_ORDER,
} from "~/services/affiliates/messages";
import {
  PROGRESS,
  quotePayoutCents,
  splitPayout,
  type OrderStep,
} from "~/services/affiliates/rules";
import { notify } from "~/platform/notifications.server";
import { creditEarnings } from "~/services/affiliates/earnings.server";
import { roadMiles } from "~/services/affiliates/distance";
import { findZipArea, isZipCode } from "~/services/affiliates/zips";
import { decodeVin } from "~/services/vehicles/decode.server";
import { env } from "~/platform/env.server";
import { centsToDecimal } from "~/utils/money";
import type { ServiceOrderFilters } from "~/services/affiliates/schemas";
import { escapeLike } from "~/utils/escape-like";
import { findYard } from "~/services/auctions/yards.server";
import { queueTransportMail } from "./transport-mail.server";

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

type NewOrder = {
  serviceType: ServiceType;
  vehicleLabel: string;
  vehicleType?: VehicleType | null;
  /** the lot's house and number, and the decoded body type (docs/decisions/2705) */
  vehicle?: { auctionHouse: string; lotNumber: string; bodyStyle: string | null } | null;
  pickup: UsCity;
  pickupYard?: string | null;
  delivery?: string;
  /** the street of the delivery address, shipping only (docs/decisions/3531) */
  deliveryStreet?: string;
  exportPort?: string;
  destinationCountry?: string;
  payout?: string;
  lotId?: string | null;
  purchaseId?: string | null;
  requestedBy?: string | null;
  createdBy: string | null;
  /** A buyer's job waits for its payment before providers see it (docs/decisions/1751). */
  paymentStatus?: OrderPaymentStatus;
};

function resolveDestination(input: NewOrder) {
  if (input.serviceType === "shipping") {
    const place = (input.delivery ?? "").trim();
    // a ZIP code goes to the centre of its area, as in the all-in estimator (record 1705)
    if (isZipCode(place)) {
      const delivery = findZipArea(place);
      if (!delivery)
        throw new AffiliateError(
          400,
          `We do not know ZIP code ${place}. Check it, or enter a city as "Dallas, TX".`,
        );
      return { delivery, zip: place.slice(0, 5), miles: roadMiles(input.pickup, delivery) };
    }
    const delivery = findCityByLabel(place);
    if (!delivery)
      throw new AffiliateError(400, 'Enter a 5-digit ZIP code, or a city as "Dallas, TX"');
    return { delivery, zip: null, miles: roadMiles(input.pickup, delivery) };
  }
  const port = findCityByLabel(input.exportPort ?? "");
  if (!port?.port) throw new AffiliateError(400, "Choose an export port from the list");
  if (!input.destinationCountry) throw new AffiliateError(400, "Choose a destination country");
  return { port, miles: roadMiles(input.pickup, port) };
}

async function insertOrder(input: NewOrder, transaction?: Transaction) {
  const destination = resolveDestination(input);
  const payout =
    input.payout ?? centsToDecimal(quotePayoutCents(input.serviceType, destination.miles));
  return ServiceOrder.create(
    {
      serviceType: input.serviceType,
      lotId: input.lotId ?? null,
      purchaseId: input.purchaseId ?? null,
      requestedBy: input.requestedBy ?? null,
      createdBy: input.createdBy,
      vehicleLabel: input.vehicleLabel,
      vehicleType: input.vehicleType ?? null,
      auctionHouse: input.vehicle?.auctionHouse ?? null,
      lotNumber: input.vehicle?.lotNumber ?? null,
      bodyStyle: input.vehicle?.bodyStyle ?? null,
      pickupCity: input.pickup.city,
      pickupState: input.pickup.state,
      pickupYard: input.pickupYard ?? null,
      deliveryCity: "delivery" in destination ? destination.delivery!.city : null,
      deliveryState: "delivery" in destination ? destination.delivery!.state : null,
      deliveryZip: "zip" in destination ? destination.zip : null,
      deliveryStreet:
        input.serviceType === "shipping" && input.deliveryStreet ? input.deliveryStreet : null,
      exportPort: "port" in destination ? destination.port!.city : null,
      exportPortState: "port" in destination ? destination.port!.state : null,
      destinationCountry: input.serviceType === "export" ? input.destinationCountry! : null,
      distanceMiles: input.serviceType === "shipping" ? destination.miles : null,
      payout,
      paymentStatus: input.paymentStatus ?? "not_required",
    },
    { transaction },
  );
}

/**
 * A body style in the board's three vehicle types, when it is one of them: the decoder's names
 * ("Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)", "Pickup", "Sedan/Saloon") and the
 * feeds' abbreviations ("4DR SPOR" is a sport utility, "CREW PICKUP", "SEDAN 4D").
 */
export function vehicleTypeOf(bodyStyle: string | null | undefined): VehicleType | null {
  const text = (bodyStyle ?? "").toLowerCase();
  if (/pickup|truck|crew|\bcab\b|cab chassis/.test(text)) return "truck";
  if (/\bsuv\b|sport ut|\bspor|utility|crossover|\bcuv\b|\bmpv\b|minivan|\bvan\b|wagon/.test(text))
    return "suv";
  if (
    /sedan|saloon|coupe|hatch|liftback|notchback|convertible|cabriolet|roadster|[24]dr|[24]d\b/.test(
      text,
    )
  )
    return "sedan";
  return null;
}

/**
 * What a transport order says about a lot's vehicle: its house and lot number, and the body type
 * decoded from its VIN (the feed's body style when the VIN does not decode or the decoder is
 * down), with the board's vehicle type from it.
 */
async function vehicleFacts(lot: Lot) {
  let decoded: string | null = null;
  try {
    decoded = (await decodeVin(lot.vin))?.bodyStyle ?? null;
  } catch (error) {
    console.error("VIN decoding failed:", (error as Error)?.message ?? error);
  }
  const bodyStyle = decoded ?? lot.bodyStyle;
  return {
    vehicle: { auctionHouse: lot.auctionHouse, lotNumber: lot.lotNumber, bodyStyle },
    vehicleType: vehicleTypeOf(decoded) ?? vehicleTypeOf(lot.bodyStyle),
  };
}

function lotLabel(lot: Lot) {
  return `${lot.year} ${lot.make} ${lot.model}${lot.trimLevel ? ` ${lot.trimLevel}` : ""}`;
}

/**
 * Where a won lot is picked up, measured from the yard's own ZIP (record 3532): the yards table's
 * ZIP and city, else the lot's ZIP, placed at its ZIP area's centre (record 1705); named by the
 * yard's city ("Kent, WA"), not the metro the lot is listed under. Without a known ZIP, the lot's
 * city from the bundled table.
 */
async function yardPickup(lot: Lot): Promise<UsCity> {
  const yard = await findYard(lot.auctionHouse, lot.yardName);
  const area = findZipArea(yard?.zip ?? lot.locationZip ?? "");
  if (!area) return lotPickup(lot);
  return {
    city: yard?.city ?? lot.locationCity,
    state: yard?.state ?? lot.locationState,
    lat: area.lat,
    lon: area.lon,
  };
}

function lotPickup(lot: Lot): UsCity {
  // a yard town missing from the table is measured from its state's largest listed city
  const city =
    findCity(lot.locationCity, lot.locationState) ?? largestCityInState(lot.locationState);
  if (!city)
    throw new AffiliateError(400, `No coordinates for ${lot.locationCity}, ${lot.locationState}`);
  return city;
}

export type AdminOrderInput = {
  serviceType: ServiceType;
  lotId?: number;
  vehicleLabel?: string;
  vehicleType?: VehicleType;
  pickup?: string;
  pickupYard?: string;
  delivery?: string;
  exportPort?: string;
  destinationCountry?: string;
  payout?: string;
};

/** An admin creates an order for a lot (pickup at the lot's yard) or a free-text vehicle. */
export async function createOrderByAdmin(adminId: string, input: AdminOrderInput) {
  let lot: Lot | null = null;
  if (input.lotId !== undefined) {
    lot = await Lot.findByPk(input.lotId);
    if (!lot) throw new AffiliateError(404, "Lot not found");
  }
  const pickup = input.pickup ? findCityByLabel(input.pickup) : lot ? lotPickup(lot) : null;
  if (!pickup) throw new AffiliateError(400, "Choose the pickup city from the list");
  const facts = lot ? await vehicleFacts(lot) : null;
  return insertOrder({
    serviceType: input.serviceType,
    vehicleLabel: input.vehicleLabel ?? (lot ? lotLabel(lot) : ""),
    vehicleType: input.vehicleType ?? facts?.vehicleType ?? null,
    vehicle: facts?.vehicle ?? null,
    pickup,
    pickupYard: input.pickupYard ?? lot?.yardName ?? null,
    delivery: input.delivery,
    exportPort: input.exportPort,
    destinationCountry: input.destinationCountry,
    payout: input.payout,
    lotId: lot ? String(lot.id) : null,
    createdBy: adminId,
  });
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

/**
 * The price of shipping or exporting a paid purchase, before anything is asked for (record
 * 3323): the same route and rate the order would get, nothing written.
 */
export async function quoteServiceForPurchase(
  userId: string,
  input: {
    purchaseId: number;
    serviceType: ServiceType;
    delivery?: string;
    exportPort?: string;
    destinationCountry?: string;
  },
) {
  const purchase = await Purchase.findByPk(input.purchaseId, {
    include: [{ model: Lot, required: true }],
  });
  if (!purchase || purchase.userId !== userId) throw new AffiliateError(404, "Purchase not found");
  if (purchase.status !== "paid")
    throw new AffiliateError(409, "Pay for this vehicle before you ask for transport.");
  const lot = (purchase as Purchase & { Lot: Lot }).Lot;
  const pickup = await yardPickup(lot);
  const destination = resolveDestination({
    serviceType: input.serviceType,
    vehicleLabel: lotLabel(lot),
    pickup,
    delivery: input.delivery,
    exportPort: input.exportPort,
    destinationCountry: input.destinationCountry,
    createdBy: userId,
  });
  const to =
    "port" in destination
      ? `${destination.port!.city}, ${destination.port!.state} for ${input.destinationCountry}`
      : `${destination.delivery!.city}, ${destination.delivery!.state}${destination.zip ? ` ${destination.zip}` : ""}`;
  return {
    serviceType: input.serviceType,
    price: centsToDecimal(quotePayoutCents(input.serviceType, destination.miles)),
    miles: destination.miles,
    from: `${pickup.city}, ${pickup.state}`,
    to,
  };
}

/** A buyer who won a lot asks for shipping or export; pickup is the lot's yard. */
export async function requestServiceForPurchase(
  userId: string,
  input: {
    purchaseId: number;
    serviceType: ServiceType;
    delivery?: string;
    deliveryStreet?: string;
    exportPort?: string;
    destinationCountry?: string;
  },
) {
  return sequelize.transaction(async (transaction) => {
    const purchase = await Purchase.findByPk(input.purchaseId, {
      include: [{ model: Lot, required: true }],
      transaction,
      lock: { level: transaction.LOCK.UPDATE, of: Purchase },
    });
    // someone else's purchase is "not found", so ids cannot be probed
    if (!purchase || purchase.userId !== userId)
      throw new AffiliateError(404, "Purchase not found");
    if (purchase.status === "cancelled")
      throw new AffiliateError(409, "This purchase was cancelled");
    // The yard releases a vehicle only once it is paid for, and an unpaid purchase may yet be
    // defaulted and relisted: transport is asked for after paying.
    if (purchase.status !== "paid")
      throw new AffiliateError(409, "Pay for this vehicle before you ask for transport.");
    const existing = await ServiceOrder.findOne({
      where: { purchaseId: purchase.id, serviceType: input.serviceType },
      transaction,
    });
    if (existing)
      throw new AffiliateError(409, `You already asked for ${input.serviceType} for this vehicle.`);
    const lot = (purchase as Purchase & { Lot: Lot }).Lot;
    const facts = await vehicleFacts(lot);
    return insertOrder(
      {
        serviceType: input.serviceType,
        vehicleLabel: lotLabel(lot),
        vehicleType: facts.vehicleType,
        vehicle: facts.vehicle,
        pickup: await yardPickup(lot),
        pickupYard: lot.yardName ?? `${lot.locationCity}, ${lot.locationState}`,
        delivery: input.delivery,
        deliveryStreet: input.deliveryStreet,
        exportPort: input.exportPort,
        destinationCountry: input.destinationCountry,
        lotId: String(lot.id),
        purchaseId: String(purchase.id),
        requestedBy: userId,
        createdBy: userId,
        paymentStatus: "unpaid",
      },
      transaction,
    );
  });
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
