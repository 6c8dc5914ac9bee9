import { Link } from "@remix-run/react";
import { LIMIT_REACHED } from "~/services/listings/messages";
import { listingsLeft, type ListingAllowance } from "~/services/listings/rules";

/** Post Vehicle's banner: free listings left, unlimited, or the limit reached. */
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
  if (!allowance.canPost)
    return (
      <div
        role="status"
        className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900"
      >
        <p className="font-semibold">Listing limit reached</p>
        <p className="mt-1 text-sm">
          {allowance.hasMembership
            ? `Your plan allows ${allowance.limit} active listings and you have ${allowance.activeListings}. Mark a vehicle sold or upgrade your plan to post more.`
            : LIMIT_REACHED}{" "}
          <Link to="/membership" className="font-semibold text-brand-700 underline">
            Upgrade your membership
          </Link>
        </p>
      </div>
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
