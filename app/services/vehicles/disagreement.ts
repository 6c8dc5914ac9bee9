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

const makeKey = (make: string) => MAKE_ALIASES[squash(make)] ?? squash(make);

function sameMake(stated: string, decoded: string) {
  return makeKey(stated) === makeKey(decoded);
}

/**
 * A model name's words, upper case: a hyphen joins (with any spaces around it), any other
 * punctuation or space separates. "F - 150 SuperCrew" and "F150 supercrew" are both F150,
 * SUPERCREW; "CR-V" is CRV.
 */
function modelWords(name: string) {
  return name
    .toUpperCase()
    .replace(/\s*-\s*/g, "")
    .split(/[^A-Z0-9]+/)
    .filter(Boolean);
}

/**
 * Two names agree when one is the other, or the other followed by more whole words: "F-150" /
 * "F150" / "F-150 SuperCrew", "Silverado" / "Silverado 1500", "RAV4" / "RAV 4". A match must end
 * where a word of the longer name ends, so "3" is not "CX-30" and "SE" is not "Sebring".
 */
function sameName(a: string[], b: string[]) {
  const [shorter, longer] = a.join("").length <= b.join("").length ? [a, b] : [b, a];
  const target = shorter.join("");
  if (target === "") return false;
  let prefix = "";
  for (const word of longer) {
    prefix += word;
    if (prefix === target) return true;
    if (prefix.length >= target.length) return false;
  }
  return false;
}

/**
 * A model name that starts with its make, without it: "Ram 1500" is also 1500, vPIC's "Mazda3"
 * is also 3 (a make glued to a number). Null when the name does not start with one of `makes`.
 */
function withoutMake(words: string[], makes: Set<string>) {
  let prefix = "";
  for (let i = 0; i < words.length - 1; i++) {
    prefix += words[i];
    if (makes.has(makeKey(prefix))) return words.slice(i + 1);
  }
  const glued = /^([A-Z]+)(\d[A-Z0-9]*)$/.exec(words[0] ?? "");
  return glued && makes.has(makeKey(glued[1])) ? [glued[2], ...words.slice(1)] : null;
}

/** A series shorter than this ("S", "SE", "LD") names a trim or a platform code, not a model. */
const SHORTEST_SERIES = 3;

/**
 * Models are named loosely ("Silverado 1500" for vPIC's "Silverado"): the stated model agrees
 * when it and the decoded model or series are the same name by sameName, with or without a
 * leading make on either side; and "3 Series" agrees with a model numbered in that series (328i,
 * 330e).
 */
function sameModel(stated: { make: string; model: string }, decoded: DecodedVin) {
  const makes = new Set([makeKey(stated.make), makeKey(decoded.make ?? "")]);
  const forms = (words: string[]) => {
    const bare = withoutMake(words, makes);
    return bare ? [words, bare] : [words];
  };
  const statedWords = modelWords(stated.model);
  if (statedWords.length === 0) return true;
  const names = [modelWords(decoded.model ?? "")];
  const series = modelWords(decoded.series ?? "");
  if (series.join("").length >= SHORTEST_SERIES) names.push(series);
  const decodedForms = names.flatMap(forms);
  if (forms(statedWords).some((a) => decodedForms.some((b) => sameName(a, b)))) return true;
  const [number, word] = statedWords;
  return (
    statedWords.length === 2 &&
    word === "SERIES" &&
    /^\d+$/.test(number) &&
    names.some((name) => new RegExp(`^${number}\\d{2}[A-Z]*$`).test(name[0] ?? ""))
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
  else if (decoded.model && !sameModel(stated, decoded))
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
