import * as z from "zod";
import { MAX_BID_CENTS } from "~/services/auctions/rules";
import { formatUsd, readTypedAmount } from "~/utils/money";
import { FEE_SCHEDULES } from "./fees";

const MAX_CENTS = 100_000_000_00;

/**
 * A dollar amount typed or carried by a form → cents ("$1,050.50" → 105050). `most` is the
 * highest amount the field takes (the database's own limit for it), said in the message.
 */
export const dollars = (message: string, most?: { cents: number; label: string }) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(40, message)
    .transform((raw, ctx) => {
      const read = readTypedAmount(raw);
      if ("problem" in read) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      // Past its limit, a field says the limit rather than call the amount a typo.
      const limit = most ?? { cents: MAX_CENTS, label: "Amount" };
      if (read.cents > limit.cents) {
        ctx.addIssue({
          code: "custom",
          message: `${limit.label}: at most ${formatUsd(limit.cents, "cents")}`,
        });
        return z.NEVER;
      }
      return read.cents;
    });

/** The purchase page's pay form: the gateway part the buyer was shown. */
export const paySchema = z.object({
  intent: z.literal("pay"),
  amount: dollars("The amount is missing or not an amount."),
  /** Which button was pressed: the deposit first, or all through the gateway (record 3313). */
  source: z.enum(["deposit", "gateway"]).default("deposit"),
});

/** The all-in estimate (a GET form on the lot page): a price, or a budget, and a ZIP or city. */
export const estimateSchema = z.object({
  bid: dollars("Enter a bid like 2500.", { cents: MAX_BID_CENTS, label: "A bid" }).optional(),
  budget: dollars("Enter the most you will pay, like 4000.", {
    cents: MAX_BID_CENTS,
    label: "The most you will pay",
  }).optional(),
  to: z.string().trim().max(80, "Enter a ZIP code or a city.").optional(),
});

const band = z.object({
  min: dollars("Each band needs a lowest price."),
  fee: dollars("Each band needs a fee (0 for none).", { cents: 1_000_000_00, label: "Fee" }),
  percent: z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,2})?$/, { message: "Percent like 7.5", abort: true })
    .refine((v) => v.replace(/^0+(?=\d)/, "").length <= 6 && Number(v) <= 100, "At most 100 %")
    .transform((v) => Math.round(Number(v) * 100)),
});

/** One fee schedule typed by an admin: rows of "lowest price, fee, percent". */
export const scheduleSchema = z
  .object({
    intent: z.literal("schedule"),
    schedule: z.enum(FEE_SCHEDULES),
    min: z.array(z.string()).min(1).max(60),
    fee: z.array(z.string()).min(1).max(60),
    percent: z.array(z.string()).min(1).max(60),
  })
  .transform((value, ctx) => {
    const rows: Array<{ min: number; fee: number; percent: number }> = [];
    for (let i = 0; i < value.min.length; i += 1) {
      if (!value.min[i]?.trim() && !value.fee[i]?.trim()) continue;
      const parsed = band.safeParse({
        min: value.min[i] ?? "",
        fee: value.fee[i] ?? "",
        percent: value.percent[i]?.trim() || "0",
      });
      if (!parsed.success) {
        ctx.addIssue({
          code: "custom",
          message: `Row ${i + 1}: ${parsed.error.issues[0].message}`,
          path: ["min"],
        });
        return z.NEVER;
      }
      rows.push(parsed.data);
    }
    rows.sort((a, b) => a.min - b.min);
    if (rows.length === 0 || rows[0].min !== 0) {
      ctx.addIssue({ code: "custom", message: "The first band must start at $0.", path: ["min"] });
      return z.NEVER;
    }
    if (new Set(rows.map((r) => r.min)).size !== rows.length) {
      ctx.addIssue({
        code: "custom",
        message: "Two bands start at the same price.",
        path: ["min"],
      });
      return z.NEVER;
    }
    return {
      schedule: value.schedule,
      bands: rows.map((r, i) => ({
        minCents: r.min,
        maxCents: rows[i + 1]?.min ?? null,
        feeCents: r.fee,
        percentBp: r.percent,
      })),
    };
  });

const whole = (label: string, max: number) =>
  z.coerce
    .number({ error: `${label}: a whole number` })
    .int(`${label}: a whole number`)
    .min(0, `${label}: 0 or more`)
    .max(max, `${label}: at most ${max}`);

/** The payment terms typed by an admin. */
export const termsSchema = z.object({
  intent: z.literal("terms"),
  dueBusinessDays: whole("Due business days", 30).refine((v) => v >= 1, "At least 1 day"),
  lateFee: dollars("Late fee: an amount", { cents: 100_000_00, label: "Late fee" }),
  storageFreeDays: whole("Free storage days", 60),
  storagePerDay: dollars("Storage per day: an amount", {
    cents: 10_000_00,
    label: "Storage per day",
  }),
  defaultGraceDays: whole("Grace days", 60),
  defaultFee: dollars("Default fee: an amount", { cents: 100_000_00, label: "Default fee" }),
});
