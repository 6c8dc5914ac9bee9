import { Link } from "@remix-run/react";
import { VehicleAutoFinder } from "~/components/listings/search-forms";
import type { ListingFilters } from "~/services/listings/schemas";
import type { FacetOption } from "~/services/auctions/options";

/** The top of /community-vehicles: what the page is, three ways in, and the quick finder. */
export function CommunityHero({
  filters,
  years,
  makes,
}: {
  filters: ListingFilters;
  years: number[];
  makes: FacetOption[];
}) {
  return (
    <section className="bg-gradient-to-br from-brand-800 via-brand-700 to-slate-900 text-white">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[1.2fr_1fr]">
        <div>
          <h1 className="text-3xl font-black sm:text-4xl">Community Vehicles</h1>
          <p className="mt-3 max-w-xl text-blue-100">
            Buy straight from owners across the US, Canada and Mexico, or post your own vehicle.
          </p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link
              to="/community-vehicles#results"
              className="rounded-lg bg-accent-500 px-5 py-2.5 font-semibold text-slate-900 hover:bg-accent-600"
            >
              Buy It Now
            </Link>
            <Link
              to="/community-vehicles?condition=excellent"
              className="rounded-lg bg-white/10 px-5 py-2.5 font-semibold text-white ring-1 ring-white/40 hover:bg-white/20"
            >
              Clean Title
            </Link>
            <Link
              to="/auctions"
              className="rounded-lg bg-white/10 px-5 py-2.5 font-semibold text-white ring-1 ring-white/40 hover:bg-white/20"
            >
              Auction Today
            </Link>
          </div>
        </div>
        <VehicleAutoFinder filters={filters} years={years} makes={makes} />
      </div>
    </section>
  );
}
