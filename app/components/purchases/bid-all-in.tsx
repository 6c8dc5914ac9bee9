import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { allInCost, linesTotal, type FeeSchedules } from "~/services/purchases/fees";
import { formatUsd } from "~/utils/money";

/**
 * The bid dialog's "if you win at $X" line: the invoice's own fees for the amount being typed,
 * from the same fee module and the schedules the invoice is written from (docs/decisions/1701).
 * Transport needs the buyer's city, which the lot page's all-in estimate asks for.
 */
export function BidAllIn({
  lotId,
  titleType,
  bidCents,
}: {
  lotId: string | number;
  titleType: string;
  bidCents: number;
}) {
  const fees = useFetcher<{ schedules: FeeSchedules }>();
  const loaded = fees.data !== undefined;
  const idle = fees.state === "idle";
  const load = fees.load;
  useEffect(() => {
    if (!loaded && idle) load("/api/fees");
  }, [loaded, idle, load]);
  if (!fees.data) return null;
  const { lines, totalCents } = allInCost(fees.data.schedules, bidCents, titleType);
  const feeCents = linesTotal(lines) - bidCents;
  return (
    <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="bid-all-in">
      If you win at {formatUsd(bidCents, "cents")}: fees {formatUsd(feeCents, "cents")}, total{" "}
      <strong>{formatUsd(totalCents, "cents")}</strong> before transport.{" "}
      <a
        href={`/auctions/${lotId}?bid=${Math.floor(bidCents / 100)}#all-in`}
        className="text-brand-700 underline"
      >
        Add transport to your city
      </a>
    </p>
  );
}
