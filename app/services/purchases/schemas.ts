import * as z from "zod";
import { formatUsd, parseCents } from "~/utils/money";
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
    .max(20, message)
    .transform((raw, ctx) => {
      const cents = parseCents(raw);
      if (cents === null || cents > MAX_CENTS) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      if (most && cents > most.cents) {
        ctx.addIssue({
          code: "custom",
          message: `${most.label}: at most ${formatUsd(most.cents, "cents")}`,
        });
        return z.NEVER;
      }
      return cents;
    });

/** The purchase page's pay form: the gateway part the buyer was shown. */
export const paySchema = z.object({
  intent: z.literal("pay"),
  amount: dollars("The amount is missing or not an amount."),
});

/** The all-in estimate (a GET form on the lot page): a price, or a budget, and a ZIP or city. */
export const estimateSchema = z.object({
  bid: dollars("Enter a bid like 2500.").optional(),
  budget: dollars("Enter the most you will pay, like 4000.").optional(),
  to: z.string().trim().max(80, "Enter a ZIP code or a city.").optional(),
});

const band = z.object({
  min: dollars("Each band needs a lowest price."),
  fee: dollars("Each band needs a fee (0 for none).", { cents: 1_000_000_00, label: "Fee" }),
  percent: z
    .string()
    .trim()
    .regex(/^\d{1,3}(\.\d{1,2})?$/, "Percent like 7.5")
    .transform((v) => Math.round(Number(v) * 100))
    .refine((bp) => bp <= 10_000, "At most 100 %"),
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
    .min(0)
    .max(max);

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
