import type { HistoryEntry } from "~/services/auctions/types";
import { LocalTime } from "~/components/local-time";
import { formatUsd } from "~/utils/money";

/**
 * A bid the engine placed for a standing proxy maximum: it answers the bid listed just below it
 * (the same moment), so the history says which bid the maximum answered (record 3312).
 */
function ProxyStep({ entry, answered }: { entry: HistoryEntry; answered?: HistoryEntry }) {
  // the row below is the bid answered only when someone else placed it by hand; a maximum that
  // was beaten outright leaves no row of its own, so then it was a competing maximum
  const rival = answered && !answered.automatic && answered.bidder !== entry.bidder;
  return (
    <span className="block text-xs text-slate-600" data-testid="proxy-step">
      Proxy step: {entry.mine ? "your" : "their"} maximum answered
      {rival
        ? ` ${answered.mine ? "your" : `${answered.bidder}'s`} ${formatUsd(answered.amount)}`
        : " a competing maximum"}
    </span>
  );
}

/**
 * The lot's bids, newest first, bidders masked; the viewer's own marked "(you)". `bidCount` is
 * the lot's count from the same read: when only the newest bids are listed, it says so.
 */
export function BidHistory({ history, bidCount }: { history: HistoryEntry[]; bidCount: number }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4" data-testid="bid-history">
      <h2 className="text-lg font-bold">Bid history</h2>
      {history.length > 0 && history.length < bidCount ? (
        <p className="text-sm text-slate-600">
          {`The newest ${history.length} of ${bidCount} bids.`}
        </p>
      ) : null}
      {history.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No bids yet.</p>
      ) : (
        // the rows' look is the table's class (app/tailwind.css), said once (record 3545)
        <table className="bid-rows mt-2 w-full text-sm">
          <thead>
            <tr className="text-left text-slate-600">
              <th className="py-1 pr-2 font-medium">Bidder</th>
              <th className="py-1 pr-2 font-medium">Amount</th>
              <th className="py-1 font-medium">Time</th>
            </tr>
          </thead>
          <tbody>
            {history.map((entry, index) => (
              <tr key={entry.id}>
                <td>
                  {entry.bidder}
                  {entry.mine ? " (you)" : ""}
                  {entry.automatic ? (
                    <ProxyStep entry={entry} answered={history[index + 1]} />
                  ) : null}
                </td>
                <td className="font-semibold">{formatUsd(entry.amount)}</td>
                <td>
                  <LocalTime at={entry.createdAt} style="bid" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
