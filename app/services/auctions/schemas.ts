import * as z from "zod";
import {
  AUCTION_HOUSES,
  DAMAGE_TYPES,
  SORT_VALUES,
  TITLE_TYPES,
} from "~/services/auctions/options";
import { BID_MESSAGES, MAX_BID_CENTS } from "~/services/auctions/rules";
import { parseCents, readTypedAmount } from "~/utils/money";

const blankToUndefined = (value: unknown) =>
  typeof value === "string" && (value.trim() === "" || value === "all") ? undefined : value;

/** Why a filter value was left out; the list page shows it under its field. */
export const AUCTION_FILTER_PROBLEMS = {
  text: (max: number) => `Use at most ${max} characters`,
  year: "Enter a year between 1900 and 2100",
  state: "Use a two-letter state code",
  choice: "Choose one of the listed options",
} as const;

const text = (max: number) =>
  z.preprocess(
    blankToUndefined,
    z.string().trim().max(max, AUCTION_FILTER_PROBLEMS.text(max)).optional(),
  );
const year = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: AUCTION_FILTER_PROBLEMS.year })
    .int(AUCTION_FILTER_PROBLEMS.year)
    .min(1900, AUCTION_FILTER_PROBLEMS.year)
    .max(2100, AUCTION_FILTER_PROBLEMS.year)
    .optional(),
);
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(blankToUndefined, z.enum(values, AUCTION_FILTER_PROBLEMS.choice).optional());

/**
 * The auction list's query: the filters of the list page and of GET /api/auctions and the auction
 * form of GET /api/vehicles, plus the More Filters. The calls refuse a bad value (400); the list
 * page leaves it out and says so under its field (lenientAuctionQuery).
 */
export const AuctionQuerySchema = z.object({
  auctionHouse: choice(AUCTION_HOUSES),
  make: text(40),
  model: text(60),
  year,
  yearMin: year,
  yearMax: year,
  damageType: choice(DAMAGE_TYPES),
  /** A primary damage as the house names it ("FRONT END"): the list's damage filter. */
  damage: z.preprocess(
    (value) => {
      const kept = blankToUndefined(value);
      return typeof kept === "string" ? kept.toUpperCase() : kept;
    },
    z.string().trim().max(60, AUCTION_FILTER_PROBLEMS.text(60)).optional(),
  ),
  location: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, AUCTION_FILTER_PROBLEMS.state)
      .optional(),
  ),
  titleType: choice(TITLE_TYPES),
  runsDrives: choice(["yes", "no"]),
  search: text(60),
  status: choice(["active", "ended"]),
  sort: choice(SORT_VALUES),
  cursor: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,80}$/)
      .optional(),
  ),
});
export type AuctionQuery = z.infer<typeof AuctionQuerySchema>;

/** A typed bid: an amount in dollars and cents, and no more than MAX_BID_CENTS. */
const money = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .superRefine((value, ctx) => {
      const read = readTypedAmount(value);
      if ("problem" in read)
        ctx.addIssue({ code: "custom", message: BID_MESSAGES.cents, continue: false });
      else if (read.cents > MAX_BID_CENTS)
        ctx.addIssue({ code: "custom", message: BID_MESSAGES.tooLarge, continue: false });
    });

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
      // a typed maximum is a proxy bid even with the box left unticked (no JS): it is never
      // dropped (record 3541)
      if (!value.isProxyBid && value.maxAmount === undefined) return;
      if (value.maxAmount === undefined) {
        ctx.addIssue({ code: "custom", path: ["maxAmount"], message: BID_MESSAGES.maxMissing });
        return;
      }
      const max = parseCents(value.maxAmount);
      if (max === null || max <= amount)
        ctx.addIssue({
          code: "custom",
          path: ["maxAmount"],
          message: value.isProxyBid ? BID_MESSAGES.proxy : BID_MESSAGES.proxyUnticked,
        });
      else if (limits && max > limits.availableCents)
        ctx.addIssue({ code: "custom", path: ["maxAmount"], message: BID_MESSAGES.funds });
    })
    .transform((value) => ({
      ...value,
      isProxyBid: value.isProxyBid || value.maxAmount !== undefined,
    }));
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
