// How a purchase's state reads to the buyer, and what to do next: one home for the words the
// purchase page and "My auctions" both show.
export type PurchaseStatus = "pending" | "paid" | "cancelled" | "defaulted";

export const PURCHASE_STATUS_LABELS: Record<PurchaseStatus, string> = {
  pending: "Awaiting payment",
  paid: "Paid",
  cancelled: "Cancelled",
  defaulted: "Defaulted",
};

export function nextStep(purchase: { id: string; lotId: string; status: PurchaseStatus }) {
  if (purchase.status === "pending")
    return { to: `/purchases/${purchase.id}`, label: "Pay the invoice" };
  if (purchase.status === "paid")
    return { to: `/purchases/${purchase.id}/release`, label: "Print the release" };
  return { to: `/purchases/${purchase.id}`, label: "See the purchase" };
}

export const shipItLink = (lotId: string) => `/service-orders/request?lot=${lotId}`;
