import { TITLE_OPTIONS } from "~/services/auctions/options";
import type { LotDetail } from "~/services/auctions/types";
import { formatUsd } from "~/utils/money";
import { Fragment, type ReactNode } from "react";
import { LocalTime } from "~/components/local-time";
import {
  expandBodyStyle,
  odometerBrandLabel,
  runConditionLabel,
  yardLabel,
} from "~/services/auctions/house-facts";

const TITLE_LABELS: Record<string, string> = Object.fromEntries(
  TITLE_OPTIONS.map((option) => [option.value, option.label]),
);

/** Every fact the feed gives about the lot, as a label/value list. */
export function LotFacts({ lot }: { lot: LotDetail }) {
  const fields: Array<[string, ReactNode]> = [
    ["Auction house", lot.auctionHouse === "iaai" ? "IAAI" : "Copart"],
    ["Lot number", lot.lotNumber],
    ["VIN", lot.vin],
    ["Year", String(lot.year)],
    ["Make", lot.make],
    ["Model", lot.model],
    ["Trim", lot.trimLevel ?? "—"],
    // the house's abbreviation in words ("4DR SPOR": 4-door sport utility, record 3550)
    ["Body style", expandBodyStyle(lot.bodyStyle) ?? "—"],
    ["Color", lot.color ?? "—"],
    ["Odometer", lot.odometer === null ? "—" : `${lot.odometer.toLocaleString("en-US")} mi`],
    ["Odometer brand", odometerBrandLabel(lot.odometerBrand)],
    // the house's own words, as on the card and in the filter (record 3310)
    ["Primary damage", lot.primaryDamage ?? "Not stated"],
    ["Secondary damage", lot.secondaryDamage ?? "—"],
    [
      "Title",
      `${TITLE_LABELS[lot.titleType] ?? lot.titleType}${lot.titleState ? ` (${lot.titleState})` : ""}`,
    ],
    // the grade as the house names it: Run and Drive, Engine Start, Stationary (record 3550)
    ["Run condition", runConditionLabel(lot.auctionHouse, lot.runCondition)],
    ["Keys", lot.hasKeys ? "Yes" : "No"],
    [
      "Estimated retail value",
      Number(lot.estimatedValue) > 0 ? formatUsd(lot.estimatedValue) : "—",
    ],
    ["Repair cost", lot.repairCost ? formatUsd(lot.repairCost) : "—"],
    [
      "Location",
      `${lot.locationCity}, ${lot.locationState}${lot.locationZip ? ` ${lot.locationZip}` : ""}`,
    ],
    ["Yard", yardLabel(lot.auctionHouse, lot.yardName) ?? "—"],
    ["Item number", lot.itemNumber ?? "—"],
    ["Sale lane (grid/row)", lot.gridRow ?? "—"],
    // the sale date (the close of bidding) is shown, and kept live, beside the countdown; the
    // opening in the past tense once it has passed (record 3551)
    [
      lot.badge === "STARTING SOON" ? "Bidding opens" : "Bidding opened",
      <LocalTime key="starts" at={lot.startsAt} />,
    ],
  ];
  return (
    // a grid of label/value pairs, one pair a row (two from sm), whose look is the list's class
    // (app/tailwind.css) rather than 23 wrappers each with its own copy of it (record 3545)
    <dl className="lot-facts mt-6 text-sm">
      {fields.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
