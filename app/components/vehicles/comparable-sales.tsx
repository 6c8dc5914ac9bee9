import { Link } from "@remix-run/react";
import type { Comparables } from "~/services/results/results.server";
import { formatUsd } from "~/utils/money";
import { SoldLotRow } from "./sold-lot-row";

/**
 * What similar lots sold for: recent comparable sales, their median, and the likely price of
 * this one (the middle half of those sales, or the value model's estimate when there are few).
 */
export function ComparableSales({
  comparables,
  lot,
}: {
  comparables: Comparables;
  lot: { year: number; make: string; model: string };
}) {
  const { sales, summary, likely } = comparables;
  const search = new URLSearchParams({
    make: lot.make,
    model: lot.model,
    yearFrom: String(lot.year - 2),
    yearTo: String(lot.year + 2),
  });
  return (
    <section
      aria-labelledby="comparables-heading"
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="comparables-heading" className="text-lg font-bold">
        What similar lots sold for
      </h2>
      {likely ? (
        <p className="mt-1 text-sm" data-testid="likely-price">
          Likely price:{" "}
          <strong>
            {formatUsd(likely.low)} – {formatUsd(likely.high)}
          </strong>{" "}
          <span className="text-slate-600">
            {likely.basis === "sales"
              ? `(the middle half of ${summary.count} comparable sales)`
              : "(our estimate from the retail value, damage and title: too few comparable sales)"}
          </span>
        </p>
      ) : null}
      {summary.count > 0 ? (
        <p className="mt-1 text-sm" data-testid="comparable-median">
          Median of {summary.count} {summary.count === 1 ? "sale" : "sales"}:{" "}
          <strong>{formatUsd(summary.median!)}</strong>
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          No {lot.make} {lot.model} within two model years has sold here yet.
        </p>
      )}
      {sales.length > 0 ? (
        <ul className="mt-2" aria-label="Recent comparable sales">
          {sales.map((sale) => (
            <SoldLotRow key={sale.id} lot={sale} />
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-sm">
        <Link to={`/auctions/results?${search}`} className="text-brand-700 underline">
          All sold {lot.make} {lot.model} results
        </Link>
      </p>
    </section>
  );
}
