// Money moves as integer cents in code and as decimal strings at the edges (database, JSON,
// forms); never as floats. The one money module for browser and server.

const TYPED = /^(\d{1,10})(?:\.(\d{1,2}))?$/;
const STORED = /^(-)?(\d+)(?:\.(\d{1,2}))?$/;

/**
 * What a person typed → cents: "1050.5" → 105050, "$1,050.05" → 105005. Null when the text is
 * not a non-negative dollar amount with at most two decimals.
 */
export function parseCents(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim().replace(/^\$/, "").replace(/,/g, "");
  const match = TYPED.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** Why typed text is not an amount: not a number at all, or finer than a cent. */
export type AmountProblem = "format" | "decimals";

/**
 * What a person typed → cents, or why it is not an amount. Unlike parseCents it reads any number
 * of digits, so a field can tell an amount past its limit by its size ("at most $10,000,000")
 * rather than call it a typo. Beyond 13 whole digits the cents are Infinity (past every limit).
 */
export function readTypedAmount(
  value: string | number | null | undefined,
): { cents: number } | { problem: AmountProblem } {
  if (value === null || value === undefined) return { problem: "format" };
  const text = String(value).trim().replace(/^\$/, "").replace(/,/g, "");
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return { problem: "format" };
  const [, wholeText, fraction = ""] = match;
  if (fraction.length > 2) return { problem: "decimals" };
  const whole = wholeText.replace(/^0+(?=\d)/, "");
  if (whole.length > 13) return { cents: Infinity };
  return { cents: Number(whole) * 100 + Number(fraction.padEnd(2, "0")) };
}

/**
 * A stored decimal amount → cents: "1234.5" → 123450, "-12.30" → -1230. Throws on anything else
 * (a stored amount that does not parse is a bug, not a user's typo).
 */
export function toCents(value: string): number {
  const match = STORED.exec(value.trim());
  if (!match) throw new Error(`Not a money amount: ${value}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "0").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents)) throw new Error(`Amount out of range: ${value}`);
  return match[1] ? -cents : cents;
}

/** Whole cents → a decimal string: 123450 → "1234.50". Throws on a fraction of a cent. */
export function fromCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`Not whole cents: ${cents}`);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Cents → a decimal string, rounding a computed fraction to the nearest cent: 105005 → "1050.05". */
export function centsToDecimal(cents: number): string {
  return fromCents(Math.round(cents));
}

/**
 * An amount for people: 105050 cents or "1050.50" dollars → "$1,050.50", "-12.30" → "-$12.30".
 * A number in dollars is read as its decimal text, never multiplied as a float; text that is not
 * an amount shows as $0.00. The same text as Intl's en-US currency format, written by hand: a
 * page says dozens of amounts and Intl's formatter cost about 1 % of a lot page's CPU
 * (docs/decisions/3570); a unit test holds the two equal.
 */
export function formatUsd(value: number | string, unit: "cents" | "dollars" = "dollars") {
  let cents: number;
  if (unit === "cents") cents = Math.round(Number(value));
  else {
    const text = String(value).trim();
    const negative = text.startsWith("-");
    cents = (parseCents(negative ? text.slice(1) : text) ?? 0) * (negative ? -1 : 1);
  }
  if (!Number.isFinite(cents)) cents = 0;
  const abs = Math.abs(cents);
  const rest = abs % 100;
  let dollars = String((abs - rest) / 100);
  for (let at = dollars.length - 3; at > 0; at -= 3)
    dollars = `${dollars.slice(0, at)},${dollars.slice(at)}`;
  return `${cents < 0 ? "-" : ""}$${dollars}.${rest < 10 ? "0" : ""}${rest}`;
}
