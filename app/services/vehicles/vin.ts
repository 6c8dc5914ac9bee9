// VIN structure rules that need no data: the characters, the North American check digit (49 CFR
// 565.15) and the model-year code in position 10. Browser-safe: the listing form uses them too.

/** 17 characters, letters and digits except I, O and Q. */
export const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;

export const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
/** Each position's weight in the check-digit sum (position 9, the digit itself, weighs 0). */
export const VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

/** Upper case, spaces and dashes removed: what people paste. */
export function normalizeVin(raw: string) {
  return raw.toUpperCase().replace(/[\s-]+/g, "");
}

export function isWellFormedVin(vin: string) {
  return VIN_PATTERN.test(vin);
}

/** The check digit position 9 must hold ("0"–"9" or "X"), or null for a malformed VIN. */
export function expectedCheckDigit(vin: string): string | null {
  if (!isWellFormedVin(vin)) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const c = vin[i];
    const value = c >= "0" && c <= "9" ? Number(c) : TRANSLITERATION[c];
    sum += value * VIN_WEIGHTS[i];
  }
  const remainder = sum % 11;
  return remainder === 10 ? "X" : String(remainder);
}

export function hasValidCheckDigit(vin: string) {
  const expected = expectedCheckDigit(vin);
  return expected !== null && vin[8] === expected;
}

/** The VIN with position 9 set to its check digit (used to build demo VINs). */
export function withCheckDigit(vin: string) {
  const draft = vin.slice(0, 8) + "0" + vin.slice(9);
  return draft.slice(0, 8) + expectedCheckDigit(draft) + draft.slice(9);
}

/** Position-10 codes in order; the cycle repeats every 30 years (1980 = A, 2010 = A). */
export const YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789";

/**
 * The model year position 10 encodes. For cars and light trucks position 7 tells the cycle: a
 * digit for 1980–2009, a letter for 2010–2039.
 */
export function modelYearOf(vin: string): number | null {
  if (!isWellFormedVin(vin)) return null;
  const index = YEAR_CODES.indexOf(vin[9]);
  if (index === -1) return null;
  return (/[0-9]/.test(vin[6]) ? 1980 : 2010) + index;
}

export function yearCode(year: number) {
  return YEAR_CODES[(((year - 1980) % 30) + 30) % 30];
}
