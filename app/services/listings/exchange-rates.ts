// Comparing community prices across currencies: the rates as the browser and the server both
// use them (docs/decisions/2806). A rate is how many units of a currency one US dollar buys.
import type { Currency } from "./fields";

export type RatesInForce = {
  /** Units per US dollar, as decimal strings; USD is "1". */
  perUsd: Record<Currency, string>;
  /** The date each rate is as of (YYYY-MM-DD); USD has none. */
  asOf: Record<Exclude<Currency, "USD">, string>;
};

export const CONVERTED_CURRENCIES = ["CAD", "MXN"] as const;

export const MAX_RATE = 100_000;

const DATE_FORMAT = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

/** "2026-11-20" → "Nov 20, 2026" (a calendar date, never shifted by a time zone). */
export function formatRateDate(isoDate: string) {
  return DATE_FORMAT.format(new Date(`${isoDate}T00:00:00Z`));
}

/** "1 USD = 1.40 CAD = 19.50 MXN, rates of Nov 20, 2026" (each date named when they differ). */
export function describeRates(rates: RatesInForce) {
  const dates = new Set(Object.values(rates.asOf));
  const one = dates.size === 1;
  const parts = CONVERTED_CURRENCIES.map(
    (currency) =>
      `${trimRate(rates.perUsd[currency])} ${currency}${one ? "" : ` (${formatRateDate(rates.asOf[currency])})`}`,
  );
  return `1 USD = ${parts.join(" = ")}${one ? `, rates of ${formatRateDate([...dates][0])}` : ""}`;
}

/** "1.400000" → "1.40", "19.123400" → "19.1234": at least two decimals, no trailing zeros. */
export function trimRate(rate: string) {
  const [whole, fraction = ""] = rate.split(".");
  const kept = fraction.replace(/0+$/, "").padEnd(2, "0");
  return `${whole}.${kept}`;
}
