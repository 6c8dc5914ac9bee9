// The price of a transport job before it is asked for.
import { type ServiceType } from "~/models/affiliate.server";
import { Lot, Purchase } from "~/models/auction.server";
import { AffiliateError } from "~/services/affiliates/applications.server";
import { quotePayoutCents } from "~/services/affiliates/rules";
import { centsToDecimal } from "~/utils/money";
import { resolveDestination, yardPickup } from "./service-order-places.server";

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
    pickup,
    delivery: input.delivery,
    exportPort: input.exportPort,
    destinationCountry: input.destinationCountry,
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
