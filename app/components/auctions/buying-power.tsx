import { BUYING_POWER_LABEL } from "~/services/auctions/rules";
import { formatUsd } from "~/utils/money";

/**
 * The buying power, worded the same on every screen: "Available for bidding: $2,000.00" (the
 * deposit minus what leading bids and unpaid invoices (bid and fees) hold).
 */
export function BuyingPowerFigure({
  available,
  className,
}: {
  available: string;
  className?: string;
}) {
  return (
    <p className={className}>
      {BUYING_POWER_LABEL}: <strong data-testid="buying-power">{formatUsd(available)}</strong>
    </p>
  );
}
