// The clock a yard keeps, from its state (docs/decisions/2701): what "the end of the yard's
// business day" is measured on. A state split between two zones gets the zone most of its people
// (and its yards) are in.
import { DEFAULT_TIME_ZONE } from "~/utils/time";

const EASTERN = "America/New_York";
const CENTRAL = "America/Chicago";
const MOUNTAIN = "America/Denver";
const PACIFIC = "America/Los_Angeles";

const BY_STATE: Record<string, string> = {
  AL: CENTRAL,
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: CENTRAL,
  CA: PACIFIC,
  CO: MOUNTAIN,
  CT: EASTERN,
  DE: EASTERN,
  DC: EASTERN,
  FL: EASTERN,
  GA: EASTERN,
  HI: "Pacific/Honolulu",
  ID: "America/Boise",
  IL: CENTRAL,
  IN: "America/Indiana/Indianapolis",
  IA: CENTRAL,
  KS: CENTRAL,
  KY: EASTERN,
  LA: CENTRAL,
  ME: EASTERN,
  MD: EASTERN,
  MA: EASTERN,
  MI: "America/Detroit",
  MN: CENTRAL,
  MS: CENTRAL,
  MO: CENTRAL,
  MT: MOUNTAIN,
  NE: CENTRAL,
  NV: PACIFIC,
  NH: EASTERN,
  NJ: EASTERN,
  NM: MOUNTAIN,
  NY: EASTERN,
  NC: EASTERN,
  ND: CENTRAL,
  OH: EASTERN,
  OK: CENTRAL,
  OR: PACIFIC,
  PA: EASTERN,
  PR: "America/Puerto_Rico",
  RI: EASTERN,
  SC: EASTERN,
  SD: CENTRAL,
  TN: CENTRAL,
  TX: CENTRAL,
  UT: MOUNTAIN,
  VT: EASTERN,
  VA: EASTERN,
  WA: PACIFIC,
  WV: EASTERN,
  WI: CENTRAL,
  WY: MOUNTAIN,
  // Canadian yards the feeds carry
  AB: "America/Edmonton",
  BC: "America/Vancouver",
  MB: "America/Winnipeg",
  NB: "America/Moncton",
  NS: "America/Halifax",
  ON: "America/Toronto",
  QC: "America/Toronto",
  SK: "America/Regina",
};

/** The IANA zone of a yard in `state` (a two-letter code); Central when the state is unknown. */
export function yardTimeZone(state: string | null | undefined): string {
  return (state && BY_STATE[state.trim().toUpperCase()]) || DEFAULT_TIME_ZONE;
}

/** The hour a yard's business day ends, on its own clock: payments due "by close of business". */
export const YARD_CLOSING = { hour: 17, minute: 0 } as const;
