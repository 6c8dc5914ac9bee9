// Does a VIN agree with the year, make and model a seller or a feed states? (docs/decisions/2102)
import { VIN_MESSAGES } from "./messages";
import type { DecodedVin } from "./types";
import { hasValidCheckDigit, isWellFormedVin, modelYearOf } from "./vin";

export type VinField = "year" | "make" | "model";
export type VinDisagreement = { field: VinField; stated: string; decoded: string };
export type VinVerdict =
  | { status: "ok"; disagreements: [] }
  | { status: "malformed" | "check_digit"; disagreements: [] }
  | { status: "unknown"; disagreements: [] }
  | { status: "disagrees"; disagreements: VinDisagreement[] };

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Names one make goes by (feeds abbreviate; Ram trucks were Dodge until 2011). */
const MAKE_ALIASES: Record<string, string> = {
  chevy: "chevrolet",
  chev: "chevrolet",
  mercedes: "mercedesbenz",
  merz: "mercedesbenz",
  vw: "volkswagen",
  toyt: "toyota",
  ram: "dodge",
};

function sameMake(stated: string, decoded: string) {
  const a = MAKE_ALIASES[squash(stated)] ?? squash(stated);
  const b = MAKE_ALIASES[squash(decoded)] ?? squash(decoded);
  return a === b;
}

/**
 * Models are named loosely ("Silverado 1500" for vPIC's "Silverado", "3 Series" for "328i"): one
 * name containing the other, the series containing the stated name, or the same leading
 * number-or-word (3 Series / 328i) counts as agreement.
 */
function sameModel(stated: string, decoded: DecodedVin) {
  const s = squash(stated);
  if (s === "") return true;
  const names = [decoded.model, decoded.series].filter((n): n is string => Boolean(n)).map(squash);
  if (names.some((n) => n !== "" && (n.includes(s) || s.includes(n)))) return true;
  const lead = /^(\d+|[a-z]+)/.exec(s)?.[1];
  return Boolean(
    lead && lead.length >= 1 && /^\d/.test(lead) && names.some((n) => n.startsWith(lead)),
  );
}

/** Compares what was stated with what the VIN decodes to. */
export function compareWithVin(
  stated: { year: number; make: string; model: string },
  decoded: DecodedVin | null,
  vin: string,
): VinVerdict {
  if (!isWellFormedVin(vin)) return { status: "malformed", disagreements: [] };
  if (!hasValidCheckDigit(vin)) return { status: "check_digit", disagreements: [] };
  const disagreements: VinDisagreement[] = [];
  const year = decoded?.modelYear ?? modelYearOf(vin);
  if (year !== null && year !== stated.year)
    disagreements.push({ field: "year", stated: String(stated.year), decoded: String(year) });
  if (!decoded || !decoded.decoded) {
    return disagreements.length > 0
      ? { status: "disagrees", disagreements }
      : { status: "unknown", disagreements: [] };
  }
  if (decoded.make && !sameMake(stated.make, decoded.make))
    disagreements.push({ field: "make", stated: stated.make, decoded: decoded.make });
  else if (decoded.model && !sameModel(stated.model, decoded))
    disagreements.push({ field: "model", stated: stated.model, decoded: decoded.model });
  return disagreements.length > 0
    ? { status: "disagrees", disagreements }
    : { status: "ok", disagreements: [] };
}

/** One sentence for a seller or an import report. */
export function describeVerdict(verdict: VinVerdict, vin: string) {
  switch (verdict.status) {
    case "malformed":
      return VIN_MESSAGES.malformed;
    case "check_digit":
      return VIN_MESSAGES.checkDigit;
    case "disagrees":
      return `VIN ${vin} decodes to ${verdict.disagreements
        .map((d) => `${d.field} ${d.decoded}`)
        .join(", ")}, not ${verdict.disagreements.map((d) => d.stated).join(" / ")} as stated.`;
    default:
      return null;
  }
}
