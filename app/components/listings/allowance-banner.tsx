import { Link } from "@remix-run/react";
import { FREE_LISTINGS, listingsLeft, type ListingAllowance } from "~/services/listings/rules";

/** Post Vehicle's banner: free listings left, or unlimited (none left: LimitReachedPanel). */
export function AllowanceBanner({ allowance }: { allowance: ListingAllowance }) {
  if (allowance.hasMembership && allowance.unlimited)
    return (
      <p
        role="status"
        className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900"
      >
        You have unlimited vehicle listings with your membership.
      </p>
    );
  return (
    <p
      role="status"
      className="rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-brand-800"
    >
      {allowance.hasMembership
        ? `You can post ${listingsLeft(allowance)} more active listings with your membership.`
        : `You have ${allowance.remainingFreeListings} free ${allowance.remainingFreeListings === 1 ? "listing" : "listings"} remaining.`}
    </p>
  );
}

/**
 * Post Vehicle with no listing left: what happened and the way forward, instead of a form that
 * cannot be sent (record 3322).
 */
export function LimitReachedPanel({ allowance }: { allowance: ListingAllowance }) {
  return (
    <section
      aria-labelledby="limit-reached-heading"
      data-testid="limit-reached"
      className="rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950"
    >
      <h2 id="limit-reached-heading" className="text-xl font-bold">
        {allowance.hasMembership
          ? `Your plan's ${allowance.limit} active listings are in use`
          : `You have used your ${FREE_LISTINGS} free listings`}
      </h2>
      <p className="mt-2">
        {allowance.hasMembership
          ? `Your plan allows ${allowance.limit} active listings and you have ${allowance.activeListings}. Mark a vehicle sold to free a place, or move to a plan with more listings.`
          : `A free account can post ${FREE_LISTINGS} vehicles in all, and deleted listings count too. A membership lets you post more vehicles, and your listings stay as they are.`}
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link
          to="/membership"
          className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          {allowance.hasMembership ? "Compare plans" : "See membership plans"}
        </Link>
        <Link
          to="/community-vehicles"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-700 hover:bg-slate-100"
        >
          Browse community listings
        </Link>
      </div>
    </section>
  );
}
