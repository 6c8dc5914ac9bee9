// Creating transport orders: by an admin, or by a buyer for a paid purchase.
import { type Transaction } from "sequelize";
import { findCityByLabel, type UsCity } from "~/services/affiliates/us-cities";
import {
  ServiceOrder,
  type OrderPaymentStatus,
  type ServiceType,
  type VehicleType,
} from "~/models/affiliate.server";
import { Lot, Purchase } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import { quotePayoutCents } from "~/services/affiliates/rules";
import { centsToDecimal } from "~/utils/money";
import { lotPickup, resolveDestination, yardPickup } from "./service-order-places.server";
import { lotLabel, vehicleFacts } from "./service-order-vehicles.server";

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
