import * as z from "zod";
import { DEPOSIT_MESSAGES, MAX_DEPOSIT_CENTS, MIN_DEPOSIT_CENTS } from "~/services/deposits/rules";
import { fromCents, toCents } from "~/utils/money";

/** Accepts "1000", "1,000.5", "$2,500.00"; answers the amount as a two-place decimal string. */
function moneyField(rules: (cents: number, ctx: z.RefinementCtx) => void) {
  return z
    .string({ error: DEPOSIT_MESSAGES.required })
    .trim()
    .min(1, DEPOSIT_MESSAGES.required)
    .transform((raw, ctx) => {
      // A negative amount is below every minimum: say the minimum, not "not a number".
      if (/^-\s*\$?\d/.test(raw)) {
        rules(-1, ctx);
        return z.NEVER;
      }
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
  if (cents < MIN_DEPOSIT_CENTS) {
    ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.minimum });
  } else if (cents > MAX_DEPOSIT_CENTS) {
    ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.maximum });
  }
});

/** A refund amount: more than zero, whole cents (the ceiling is checked by the service). */
export const refundAmount = moneyField((cents, ctx) => {
  if (cents <= 0) ctx.addIssue({ code: "custom", message: DEPOSIT_MESSAGES.refundAboveZero });
});

/** The deposit page's forms, told apart by `intent`. */
export const depositPageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("choose"), amount: depositAmount }),
  z.object({ intent: z.literal("pay"), amount: depositAmount }),
  z.object({ intent: z.literal("refund-review"), refundAmount }),
  z.object({ intent: z.literal("refund"), refundAmount }),
]);

/** POST /paypal/order: {amount (string or number), currency (USD), intent (CAPTURE)}. */
export const createDepositOrderSchema = z.object({
  amount: z.union([z.string(), z.number().transform(String)]).pipe(depositAmount),
  currency: z.literal("USD").default("USD"),
  intent: z.literal("CAPTURE").default("CAPTURE"),
});

/** A provider's order id as it comes back in a URL or a body. */
export const providerOrderId = z
  .string({ error: DEPOSIT_MESSAGES.unknownOrder })
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, DEPOSIT_MESSAGES.unknownOrder);

/**
 * POST /api/confirm-deposit: {orderID, amount}. The amount is never trusted (what the provider
 * captured is credited); every refusal reads "Unknown payment order".
 */
export const confirmDepositSchema = z.object(
  { orderID: providerOrderId, amount: z.unknown().optional() },
  { error: DEPOSIT_MESSAGES.unknownOrder },
);

/** An admin settling a refused refund by hand (docs/decisions/3502): which one, and how. */
export const resolveRefundSchema = z.object({
  refundId: z.uuid("Choose a refund."),
  resolution: z
    .string({ error: "Say how it was settled." })
    .trim()
    .min(3, "Say how it was settled.")
    .max(500, "Keep it under 500 characters."),
});
