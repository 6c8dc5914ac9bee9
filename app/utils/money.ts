// Money moves as integer cents in code and as decimal strings at the edges; never as floats.

const CENTS = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** "1050.5" → 105050; null when the text is not dollars with at most two decimals. */
export function parseCents(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().replace(/^\$/, "").replace(/,/g, "");
  const match = CENTS.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** 105050 → "1050.50" */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 105050 or "1050.50" → "$1,050.50" */
export function formatUsd(value: number | string, unit: "cents" | "dollars" = "dollars") {
  const cents = unit === "cents" ? Number(value) : (parseCents(String(value)) ?? 0);
  return usd.format(cents / 100);
}
