import { Link } from "@remix-run/react";
import type { Comparables } from "~/services/results/results.server";
import { COMPARABLE_LIMIT } from "~/services/results/guidance";
import { formatUsd } from "~/utils/money";
import { SoldLotRow } from "./sold-lot-row";

const BASIS: Record<NonNullable<Comparables["likely"]>["basis"], (count: number) => string> = {
  sales: (count) => `(the middle half of ${count} comparable sales)`,
  few_sales: (count) =>
    `(few sales: wide range, from ${count} comparable ${count === 1 ? "sale" : "sales"})`,
  model: () =>
    "(no comparable sales yet: a wide range from our estimate of the retail value, damage and title)",
};

/**
 * What similar lots sold for: recent comparable sales, their median and spread, and the likely
 * price of this one, which rests on those same sales (docs/decisions/2703): their middle half,
 * or, with few or none, a wide range that says so.
 */
export function ComparableSales({
  comparables,
  lot,
  salesHref,
  headingLevel = 2,
}: {
  comparables: Omit<Comparables, "sales"> & { sales?: Comparables["sales"] };
  lot: { year: number; make: string; model: string };
  /** the lot page links to the sales on their own page instead of listing them (record 3544) */
  salesHref?: string;
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? "h1" : "h2";
  const { sales, spread, likely } = comparables;
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
      <Heading id="comparables-heading" className="text-lg font-bold">
        What similar lots sold for
      </Heading>
      {likely ? (
        <p className="mt-1 text-sm" data-testid="likely-price">
          {"Likely price: "}
          <strong>{`${formatUsd(likely.low)} – ${formatUsd(likely.high)}`}</strong>{" "}
          <span className="text-slate-600">{BASIS[likely.basis](likely.count)}</span>
        </p>
      ) : null}
      {spread.count > 0 ? (
        <p className="mt-1 text-sm" data-testid="comparable-median">
          {`Median of ${spread.count} ${spread.count === 1 ? "sale" : "sales"}: `}
          <strong>{formatUsd(spread.median!)}</strong>
          {spread.count > 1 ? (
            <span className="text-slate-600">
              {` (from ${formatUsd(spread.min!)} to ${formatUsd(spread.max!)})`}
            </span>
          ) : null}
        </p>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          {`No ${lot.make} ${lot.model} within two model years has sold here yet.`}
        </p>
      )}
      {salesHref && spread.count > 0 ? (
        <p className="mt-2 text-sm">
          <Link to={salesHref} prefetch="intent" className="text-brand-700 underline">
            {`The ${Math.min(spread.count, COMPARABLE_LIMIT)} most recent comparable ${
              spread.count === 1 ? "sale" : "sales"
            }, with photos`}
          </Link>
        </p>
      ) : null}
      {sales && sales.length > 0 ? (
        <ul className="mt-2" aria-label="Recent comparable sales">
          {sales.map((sale) => (
            <SoldLotRow key={sale.id} lot={sale} />
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-sm">
        <Link to={`/auctions/results?${search}`} className="text-brand-700 underline">
          {`All sold ${lot.make} ${lot.model} results`}
        </Link>
      </p>
    </section>
  );
}
