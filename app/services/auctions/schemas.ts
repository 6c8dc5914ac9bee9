import * as z from "zod";
import { BID_MESSAGES } from "~/services/auctions/rules";
import { parseCents } from "~/utils/money";

const blankToUndefined = (value: unknown) =>
  typeof value === "string" && (value.trim() === "" || value === "all") ? undefined : value;
const text = (max: number) => z.preprocess(blankToUndefined, z.string().trim().max(max).optional());
const year = z.preprocess(blankToUndefined, z.coerce.number().int().min(1900).max(2100).optional());

/**
 * The auction list's query: the filters of the list page and of GET /api/auctions and the auction
 * form of GET /api/vehicles, plus the More Filters. Unknown values are refused (400).
 */
export const AuctionQuerySchema = z.object({
  auctionHouse: z.preprocess(blankToUndefined, z.enum(["copart", "iaai"]).optional()),
  make: text(40),
  model: text(60),
  year,
  yearMin: year,
  yearMax: year,
  damageType: z.preprocess(
    blankToUndefined,
    z
      .enum(["collision", "flood", "hail", "theft", "fire", "mechanical", "vandalism", "other"])
      .optional(),
  ),
  location: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "Use a two-letter state code")
      .optional(),
  ),
  titleType: z.preprocess(
    blankToUndefined,
    z
      .enum(["clean", "salvage", "rebuilt", "certificate_of_destruction", "parts_only", "other"])
      .optional(),
  ),
  runsDrives: z.preprocess(blankToUndefined, z.enum(["yes", "no"]).optional()),
  search: text(60),
  status: z.preprocess(blankToUndefined, z.enum(["active", "ended"]).optional()),
  cursor: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,80}$/)
      .optional(),
  ),
});
export type AuctionQuery = z.infer<typeof AuctionQuerySchema>;

const money = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .regex(/^\d{1,10}(\.\d{1,2})?$/, BID_MESSAGES.cents);

/**
 * The bid form (dialog, lot page, no-JS page). With `limits` (the browser knows the lot's minimum
 * and the bidder's available buying power) it checks them too; the server checks them again
 * under the lot lock with the same messages.
 */
export function bidFormSchema(
  limits: { minCents: number; availableCents: number; minLabel: string } | null = null,
) {
  return z
    .object({
      intent: z.enum(["bid", "prebid"]).optional(),
      amount: money(BID_MESSAGES.amountMissing),
      isProxyBid: z.preprocess(
        (value) => value === true || value === "true" || value === "on",
        z.boolean(),
      ),
      maxAmount: z.preprocess(blankToUndefined, money(BID_MESSAGES.maxMissing).optional()),
      js: z.string().optional(),
      redirectTo: z.string().optional(),
    })
    .superRefine((value, ctx) => {
      const amount = parseCents(value.amount) ?? 0;
      if (limits && amount < limits.minCents)
        ctx.addIssue({
          code: "custom",
          path: ["amount"],
          message: BID_MESSAGES.minimum(limits.minLabel),
        });
      else if (limits && amount > limits.availableCents)
        ctx.addIssue({ code: "custom", path: ["amount"], message: BID_MESSAGES.funds });
      if (!value.isProxyBid) return;
      const max = value.maxAmount === undefined ? null : parseCents(value.maxAmount);
      if (max === null || max <= amount)
        ctx.addIssue({ code: "custom", path: ["maxAmount"], message: BID_MESSAGES.proxy });
      else if (limits && max > limits.availableCents)
        ctx.addIssue({ code: "custom", path: ["maxAmount"], message: BID_MESSAGES.funds });
    });
}

/** POST /api/bids. Every refusal of the body reads "Invalid Bid: <field>: <what to send>". */
export const BidApiSchema = z.object(
  {
    vehicleId: z.union([z.string().regex(/^\d{1,18}$/), z.number().int().positive()], {
      error: "Invalid Bid: vehicleId: Send the lot's id.",
    }),
    amount: z
      .union([z.string(), z.number()], { error: "Invalid Bid: amount: Send the bid amount." })
      .transform(String),
    isProxyBid: z
      .boolean({ error: "Invalid Bid: isProxyBid: Send true or false." })
      .optional()
      .default(false),
    maxAmount: z
      .union([z.string(), z.number(), z.null()], {
        error: "Invalid Bid: maxAmount: Send the maximum amount.",
      })
      .optional()
      .transform((v) => (v === null || v === undefined ? undefined : String(v))),
  },
  { error: "Invalid Bid: body: Send a JSON object." },
);
