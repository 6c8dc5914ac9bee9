import { Link } from "@remix-run/react";
import { ListingCardSkeleton, ListingCardView } from "~/components/listings/listing-card";
import type { ListingCard } from "~/services/listings/listings.server";
import { ignoredFilterNotice, type IgnoredFilter } from "~/services/listings/schemas";

/**
 * The results of /community-vehicles: the count, what the page could not read, the cards (or
 * skeletons while a search loads, or an empty state) and "Load more", which is a plain link to
 * the next page without JavaScript and appends that page in place with it.
 */
export function Results({
  total,
  totalCapped,
  firstPageHref,
  notices,
  ignored,
  searching,
  listings,
  nextHref,
  onLoadMore,
  loading,
  returnTo,
  signedIn,
  conversion,
}: {
  total: number;
  totalCapped: boolean;
  /** Set on a later page. */
  firstPageHref: string | null;
  notices: string[];
  /** Filter values left out of this search, each named with its reason. */
  ignored: IgnoredFilter[];
  searching: boolean;
  listings: ListingCard[];
  nextHref: string | null;
  onLoadMore: () => void;
  loading: boolean;
  returnTo: string;
  signedIn: boolean;
  /** How "≈" prices were worked out: the buyer's currency and the dated rates. */
  conversion: string;
}) {
  return (
    <section id="results" aria-labelledby="results-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="results-heading" className="text-xl font-bold" aria-live="polite">
          {total.toLocaleString("en-US")}
          {totalCapped ? "+" : ""} vehicles found
        </h2>
        {firstPageHref ? (
          <Link to={firstPageHref} className="text-sm font-semibold text-brand-700 underline">
            Back to the first page
          </Link>
        ) : null}
      </div>
      {listings.some((listing) => listing.converted) ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="conversion-note">
          {conversion}
        </p>
      ) : null}
      {notices.map((notice) => (
        <p key={notice} role="status" className="mt-2 text-sm text-amber-800">
          {notice}
        </p>
      ))}
      {ignored.length > 0 ? (
        <div
          role="status"
          aria-labelledby="ignored-filters-heading"
          className="mt-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p id="ignored-filters-heading" className="font-semibold">
            {ignored.length === 1
              ? "One filter could not be used, so these results leave it out:"
              : `${ignored.length} filters could not be used, so these results leave them out:`}
          </p>
          <ul className="mt-1 list-disc pl-5">
            {ignored.map((filter) => (
              <li key={filter.key}>{ignoredFilterNotice(filter)}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {searching ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          {Array.from({ length: 6 }, (_, i) => (
            <ListingCardSkeleton key={i} />
          ))}
        </div>
      ) : listings.length === 0 ? (
        <div className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <p className="text-lg font-bold text-slate-900">No vehicles found</p>
          <p className="mt-1 text-slate-600">Try adjusting your filters.</p>
          {signedIn ? (
            <Link
              to="/post-vehicle"
              className="mt-4 inline-flex rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
            >
              Post Your Vehicle
            </Link>
          ) : null}
        </div>
      ) : (
        <>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {listings.map((listing) => (
              <li key={listing.id}>
                <ListingCardView listing={listing} returnTo={returnTo} signedIn={signedIn} />
              </li>
            ))}
          </ul>
          {nextHref ? (
            <div className="mt-6 flex justify-center">
              <Link
                to={nextHref}
                onClick={(event) => {
                  event.preventDefault();
                  onLoadMore();
                }}
                className="rounded-lg border border-brand-700 px-6 py-2.5 font-semibold text-brand-700 hover:bg-brand-50"
              >
                {loading ? "Loading..." : "Load more"}
              </Link>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
