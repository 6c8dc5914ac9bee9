import { BuyingPowerFigure } from "~/components/auctions/buying-power";
import { LocalTime } from "~/components/local-time";
import { Link } from "@remix-run/react";
import { bidMessage } from "~/services/auctions/rules";
import type { BiddingEligibility } from "~/services/auctions/eligibility";
import { canBidWith } from "~/services/deposits/rules";
import { formatUsd, toCents } from "~/utils/money";

const KIND_LABELS = {
  deposit: "Deposit",
  refund: "Refund",
  applied: "Applied to purchase",
  adjustment: "Adjustment",
} as const;

/**
 * The TEST MODE banner, the balance, and whether this person may bid: the one eligibility answer
 * every page gives (a deposit alone does not enable bidding while the ID is not verified).
 */
export function DepositBalance({
  balance,
  available,
  eligibility,
  testMode,
}: {
  balance: string;
  /** The buying power: the balance minus what leading bids and unpaid invoices (bid and fees) hold. */
  available: string;
  eligibility: BiddingEligibility;
  testMode: boolean;
}) {
  const depositEnough = canBidWith(toCents(balance));
  const otherReasons = eligibility.reasons.filter((reason) => reason.need !== "deposit");
  return (
    <>
      {testMode ? (
        <p
          className="mt-4 rounded-lg border-2 border-dashed border-accent-500 bg-amber-50 p-3 text-sm"
          data-testid="test-mode"
        >
          <strong className="mr-2 rounded bg-accent-500 px-1.5 py-0.5 font-bold text-slate-900">
            TEST MODE
          </strong>
          PayPal is not configured: payments go through BidYard&apos;s built-in test gateway and no
          real money moves.
        </p>
      ) : null}

      <section
        aria-labelledby="balance-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 id="balance-heading" className="text-sm font-medium text-slate-500">
              Current Account Balance
            </h2>
            <p className="text-3xl font-bold" data-testid="balance">
              {formatUsd(balance)}
            </p>
            <BuyingPowerFigure available={available} className="mt-1 text-sm text-slate-600" />
          </div>
          <span
            data-testid="bidding-status"
            className={`rounded-full px-3 py-1 text-sm font-semibold ${
              eligibility.canBid ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-900"
            }`}
          >
            {eligibility.label}
          </span>
        </div>
        {!depositEnough ? (
          <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            You need at least $400 to start bidding on auctions.
          </p>
        ) : null}
        {otherReasons.map((reason) => (
          <p
            key={reason.need}
            role="status"
            className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          >
            {bidMessage(reason)}{" "}
            <Link to={reason.link.to} className="font-semibold text-brand-700 underline">
              {reason.link.label}
            </Link>
          </p>
        ))}
      </section>
    </>
  );
}

export function TrustBadges() {
  return (
    <ul
      aria-label="Security"
      className="mt-8 flex flex-wrap gap-3 text-sm font-medium text-slate-700"
    >
      {["SSL Encrypted", "PCI Compliant", "Fully Refundable"].map((badge) => (
        <li key={badge} className="rounded-full border border-slate-200 bg-white px-3 py-1">
          {badge}
        </li>
      ))}
    </ul>
  );
}

export type HistoryEntry = {
  id: string;
  kind: keyof typeof KIND_LABELS;
  amount: string;
  balanceAfter: string;
  memo: string;
  createdAt: string;
};

/** The ledger, newest first. */
export function DepositHistory({ history }: { history: HistoryEntry[] }) {
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading" className="text-lg font-bold">
        Deposit History
      </h2>
      {history.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No deposits yet.</p>
      ) : (
        <ol className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {history.map((entry) => (
            <li key={entry.id} className="flex flex-wrap justify-between gap-2 p-3 text-sm">
              <div>
                <p className="font-semibold">{KIND_LABELS[entry.kind]}</p>
                <p className="text-slate-500">
                  <LocalTime at={entry.createdAt} />
                  {entry.memo ? ` · ${entry.memo}` : ""}
                </p>
              </div>
              <div className="text-right">
                <p
                  className={`font-semibold ${
                    entry.amount.startsWith("-") ? "text-red-700" : "text-emerald-700"
                  }`}
                >
                  {entry.amount.startsWith("-") ? "−" : "+"}
                  {formatUsd(entry.amount.replace(/^-/, ""))}
                </p>
                <p className="text-slate-500">Balance {formatUsd(entry.balanceAfter)}</p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
