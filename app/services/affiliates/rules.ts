// The affiliate programme's numbers, in one place for the server and the browser: what an order
// pays, what the platform keeps, and how far along each status is.
import type { OrderStatus, ServiceType } from "~/models/affiliate.server";
import { parseCents } from "~/utils/money";

/** The upload purpose of an applicant's licence or business document. */
export const LICENCE_UPLOAD_PURPOSE = "affiliate_licence" as const;

/** The steps an affiliate takes on an order: claim it, start it, complete it. */
export const ORDER_INTENTS = ["claim", "start", "complete"] as const;
export type OrderStep = (typeof ORDER_INTENTS)[number];

/** How far along an order is, in percent, by status (the progress bar). */
export const PROGRESS: Record<OrderStatus, number> = {
  open: 0,
  claimed: 25,
  in_progress: 75,
  completed: 100,
};

/**
 * Gross payout in cents for a route: a base plus a rate per mile, in whole dollars
 * (docs/decisions/0703-payout-quote-and-platform-fee.md).
 */
export function quotePayoutCents(serviceType: ServiceType, miles: number) {
  const base = serviceType === "shipping" ? 150_00 : 450_00;
  return Math.round((base + miles * 85) / 100) * 100;
}

/**
 * The platform fee and what the affiliate receives, in integer cents. The fee is `feePercent`
 * of the gross, rounded half up to the cent (worked in basis points so no float touches money).
 */
export function splitPayout(grossDecimal: string, feePercent: number) {
  const gross = parseCents(grossDecimal) ?? 0;
  const basisPoints = Math.round(feePercent * 100);
  const fee = Math.floor((gross * basisPoints + 5_000) / 10_000);
  return { grossCents: gross, feeCents: fee, netCents: gross - fee };
}

/** How a vehicle type reads in a list ("suv" → "SUV", "sedan" → "Sedan"). */
export const vehicleTypeLabel = (value: string) =>
  value === "suv" ? "SUV" : value.charAt(0).toUpperCase() + value.slice(1);

/** The job board's count line: "1 order available", "3 orders available". */
export const ordersAvailableLabel = (count: number) =>
  `${count} ${count === 1 ? "order" : "orders"} available`;
