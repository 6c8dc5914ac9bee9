import * as z from "zod";
import { fromCents, toCents } from "~/utils/cents";

export const MINIMUM_DEPOSIT = "400.00";
export const MAXIMUM_DEPOSIT = "100000.00";
export const DEPOSIT_PRESETS = [
  { amount: "400.00", label: "$400", note: "Minimum" },
  { amount: "1000.00", label: "$1,000", note: "Popular" },
  { amount: "2500.00", label: "$2,500", note: "Premium" },
] as const;

export const DEPOSIT_MESSAGES = {
  required: "Enter an amount.",
  notANumber: "Enter an amount in dollars, like 400.00.",
  decimals: "Use at most two decimal places.",
  minimum: "Minimum deposit is $400.",
  maximum: "The most you can deposit at once is $100,000.00.",
} as const;

/** Accepts "1000", "1,000.5", "$2,500.00"; answers the amount as a two-place decimal string. */
function moneyField(rules: (cents: number, ctx: z.RefinementCtx) => void) {
  return z
    .string({ error: DEPOSIT_MESSAGES.required })
    .trim()
    .min(1, DEPOSIT_MESSAGES.required)
    .transform((raw, ctx) => {
      const plain = raw.replace(/^\$/, "").replace(/,(?=\d{3}(\D|$))/g, "");
      if (!/^\d+(\.\d+)?$/.test(plain) || plain.length > 30) {
        ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.notANumber });
        return z.NEVER;
      }
      if (/\.\d{3,}$/.test(plain)) {
        ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.decimals });
        return z.NEVER;
      }
      const whole = plain.split(".")[0].replace(/^0+(?=\d)/, "");
      if (whole.length > 9) {
        ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.maximum });
        return z.NEVER;
      }
      const cents = toCents(plain);
      rules(cents, ctx);
      return fromCents(cents);
    });
}

/** A deposit amount: at least $400, at most $100,000, whole cents. */
export const depositAmount = moneyField((cents, ctx) => {
  if (cents < toCents(MINIMUM_DEPOSIT)) {
    ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.minimum });
  } else if (cents > toCents(MAXIMUM_DEPOSIT)) {
    ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.maximum });
  }
});

/** A refund amount: more than zero, whole cents (the ceiling is checked by the service). */
export const refundAmount = moneyField((cents, ctx) => {
  if (cents <= 0) ctx.addIssue({ code: "custom", message: "Enter an amount above $0.00." });
});

/** The deposit page's forms, told apart by `intent`. */
export const depositPageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("choose"), amount: depositAmount }),
  z.object({ intent: z.literal("pay"), amount: depositAmount }),
  z.object({ intent: z.literal("refund"), refundAmount }),
]);

/** POST /paypal/order (SPEC §7): {amount (string), currency (USD), intent (CAPTURE)}. */
export const createDepositOrderSchema = z.object({
  amount: z.union([z.string(), z.number().transform(String)]).pipe(depositAmount),
  currency: z.literal("USD").default("USD"),
  intent: z.literal("CAPTURE").default("CAPTURE"),
});

/** POST /api/confirm-deposit (SPEC §7): {orderID, amount}; the amount is never trusted. */
export const confirmDepositSchema = z.object({
  orderID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, "Unknown order"),
  amount: z.unknown().optional(),
});
