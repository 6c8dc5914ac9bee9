// What a page shows about a VIN, and the one VIN check for posting a listing (record 2102).
import { UserError } from "~/utils/user-error";
import { decodeVin } from "./decode.server";
import { compareWithVin, describeVerdict, type VinVerdict } from "./disagreement";
import type { DecodedVin } from "./types";
import { normalizeVin } from "./vin";
import { log } from "~/platform/log.server";

export type VinReport = {
  vin: string;
  decoded: DecodedVin | null;
  verdict: VinVerdict;
  /** one sentence when the VIN fails its check digit or disagrees with the stated vehicle */
  warning: string | null;
};

/**
 * Decodes a VIN and compares it with the stated vehicle. A decoder failure (the data file
 * unreadable, say) is logged and the page shows the stated facts only: null.
 */
export async function vinReport(
  rawVin: string | null | undefined,
  stated: { year: number; make: string; model: string },
): Promise<VinReport | null> {
  if (!rawVin) return null;
  const vin = normalizeVin(rawVin);
  // before 1981 VINs had no common form: nothing to decode or check
  if (vin.length !== 17 && stated.year < 1981) return null;
  let decoded: DecodedVin | null;
  try {
    decoded = await decodeVin(vin);
  } catch (error) {
    log().error({ err: error }, "VIN decoding failed");
    return null;
  }
  const verdict = compareWithVin(stated, decoded, vin);
  return { vin, decoded, verdict, warning: describeVerdict(verdict, vin) };
}

/** A VIN refused on posting: it fails its check digit or decodes to another vehicle. */
export class VinRejectedError extends UserError {
  constructor(message: string, code: string) {
    super(message, { status: 400, field: "vin", code, title: "Check the VIN" });
  }
}

/**
 * The posting check: a VIN with a wrong check digit, or one that decodes to another year, make
 * or model, is refused with what it decodes to, so the seller fixes the VIN or the vehicle.
 * A VIN vPIC does not know is accepted as typed, and so is one the decoder cannot read because it
 * failed to start: the failure is logged and only the checks that need no decoder apply.
 * Answers the decoded VIN when it agrees with the vehicle (its facts may fill the listing), else
 * null.
 */
export async function assertListingVin(input: {
  vin?: string | null;
  year: number;
  make: string;
  model: string;
}): Promise<DecodedVin | null> {
  if (!input.vin) return null;
  const vin = normalizeVin(input.vin);
  let decoded: DecodedVin | null;
  try {
    decoded = await decodeVin(vin);
  } catch (error) {
    // The decoder is our part (its data file unreadable, say): a seller is not refused for it.
    // Without a decode, compareWithVin still checks the check digit and the year of position 10.
    log().error(
      { err: error },
      "VIN decoding failed; the listing is checked without make and model",
    );
    decoded = null;
  }
  const verdict = compareWithVin(input, decoded, vin);
  if (verdict.status === "ok") return decoded;
  if (verdict.status === "unknown") return null;
  const sentence = describeVerdict(verdict, vin)!;
  if (verdict.status === "disagrees")
    throw new VinRejectedError(
      `${sentence} Correct the VIN, or the year, make and model, so they match.`,
      "vin_disagrees",
    );
  throw new VinRejectedError(sentence, `vin_${verdict.status}`);
}
