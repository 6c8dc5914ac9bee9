// Money as integer cents in code, decimal strings at the edges (database, JSON, forms).

/** "1234.5" | "1234.50" → 123450. Throws on anything that is not a plain decimal amount. */
export function toCents(value: string): number {
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) throw new Error(`Not a money amount: ${value}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "0").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) throw new Error(`Amount out of range: ${value}`);
  return match[1] ? -cents : cents;
}

/** 123450 → "1234.50" */
export function fromCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`Not whole cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** "2500.00" → "$2,500.00" */
export function formatUsd(value: string | number): string {
  const cents = typeof value === "number" ? Math.round(value * 100) : toCents(value);
  return usd.format(cents / 100);
}
