import { Form, Link, useFetcher } from "@remix-run/react";
import type { ListingCard as Card } from "~/services/listings/listings.server";
import {
  CONDITION_BADGE,
  COUNTRY_NAMES,
  capitalise,
  formatMileage,
  formatPrice,
} from "~/services/listings/fields";
import { LocalTime } from "~/components/local-time";
import { useHydrated } from "~/utils/use-hydrated";

export function placeLabel(listing: Pick<Card, "city" | "state" | "country">) {
  return `${listing.city}, ${listing.state || COUNTRY_NAMES[listing.country]}`;
}

export function VehiclePlaceholder({ className = "" }: { className?: string }) {
  return (
    <div
      className={`flex items-center justify-center bg-slate-200 text-slate-400 ${className}`}
      aria-hidden="true"
    >
      <svg viewBox="0 0 64 32" className="h-12 w-24" fill="currentColor">
        <path d="M10 22h44a4 4 0 0 0 4-4v-3a3 3 0 0 0-2.4-2.9L46 10l-7-6H22l-7 6-6.6 1.6A3 3 0 0 0 6 14.5V18a4 4 0 0 0 4 4Z" />
        <circle cx="18" cy="23" r="5" />
        <circle cx="46" cy="23" r="5" />
      </svg>
    </div>
  );
}

export function ConditionBadge({ condition }: { condition: Card["condition"] }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${CONDITION_BADGE[condition]}`}
    >
      {capitalise(condition)}
    </span>
  );
}

/**
 * Saves or removes a favourite. A real form post (works without JS; a visitor is sent to sign
 * in); with JS it posts through a fetcher and shows the new state at once.
 */
export function FavoriteButton({
  listingId,
  isFavorite,
  returnTo,
  signedIn,
}: {
  listingId: string;
  isFavorite: boolean;
  returnTo: string;
  signedIn: boolean;
}) {
  const fetcher = useFetcher<{ favorite: boolean }>();
  const hydrated = useHydrated();
  const pending = fetcher.formData?.get("favorite");
  const saved = pending != null ? pending === "true" : (fetcher.data?.favorite ?? isFavorite);
  const label = saved ? "Remove from favorites" : "Save to favorites";
  const button = (
    <button
      type="submit"
      aria-label={label}
      aria-pressed={saved}
      title={label}
      className="rounded-full bg-white/90 p-2 text-slate-700 shadow hover:text-red-600"
    >
      <svg
        viewBox="0 0 24 24"
        className={`h-5 w-5 ${saved ? "fill-red-600 text-red-600" : "fill-none"}`}
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <path d="M12 21s-7.5-4.6-9.5-9.3C1.1 8.3 3.4 5 6.8 5c2 0 3.4 1.1 4.2 2.3C11.8 6.1 13.2 5 15.2 5c3.4 0 5.7 3.3 4.3 6.7C19.5 16.4 12 21 12 21Z" />
      </svg>
    </button>
  );
  const fields = (
    <>
      <input type="hidden" name="intent" value="favorite" />
      <input type="hidden" name="listingId" value={listingId} />
      <input type="hidden" name="favorite" value={saved ? "false" : "true"} />
      <input type="hidden" name="returnTo" value={returnTo} />
    </>
  );
  if (!hydrated || !signedIn) {
    return (
      <Form method="post" action="/community-vehicles" reloadDocument={!signedIn}>
        {fields}
        {button}
      </Form>
    );
  }
  return (
    <fetcher.Form method="post" action="/community-vehicles">
      {fields}
      <input type="hidden" name="stay" value="1" />
      {button}
    </fetcher.Form>
  );
}

/** What the "ID verified" badge means, said wherever it is shown (docs/decisions/2855). */
export const ID_VERIFIED_MEANING =
  "This seller's government ID was checked and approved by our team.";

/** The seller verified a government ID with us: the badge on their cards and listing pages. */
export function IdVerifiedBadge() {
  return (
    <span
      title={ID_VERIFIED_MEANING}
      data-testid="id-verified"
      className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800"
    >
      <svg viewBox="0 0 20 20" className="h-3 w-3" fill="currentColor" aria-hidden="true">
        <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
      </svg>
      ID verified
    </span>
  );
}

/** Sold, Featured and the condition, as small badges (the caller lays them out). */
export function ListingBadges({
  sold = false,
  featured,
  condition,
}: {
  sold?: boolean;
  featured: boolean;
  condition: Card["condition"];
}) {
  return (
    <>
      {sold ? (
        <span className="rounded-full bg-slate-800 px-2 py-0.5 text-xs font-bold text-white">
          Sold
        </span>
      ) : null}
      {featured ? (
        <span className="rounded-full bg-accent-500 px-2 py-0.5 text-xs font-bold text-slate-900">
          Featured
        </span>
      ) : null}
      <ConditionBadge condition={condition} />
    </>
  );
}

export function ListingCardView({
  listing,
  returnTo,
  signedIn,
}: {
  listing: Card;
  returnTo: string;
  signedIn: boolean;
}) {
  return (
    <article className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="relative aspect-[4/3]">
        {listing.imageUrl ? (
          <img
            src={listing.imageUrl}
            alt=""
            loading="lazy"
            width={400}
            height={300}
            className="h-full w-full object-cover"
          />
        ) : (
          <VehiclePlaceholder className="h-full w-full" />
        )}
        <div className="absolute left-2 top-2 flex gap-1">
          <ListingBadges featured={listing.featured} condition={listing.condition} />
        </div>
        <div className="absolute right-2 top-2">
          <FavoriteButton
            listingId={listing.id}
            isFavorite={listing.isFavorite}
            returnTo={returnTo}
            signedIn={signedIn}
          />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1 p-4">
        <h3 className="line-clamp-2 wrap-anywhere font-bold text-slate-900" title={listing.title}>
          {listing.title}
        </h3>
        <p className="text-xl font-black text-brand-700">
          {formatPrice(listing.price, listing.currency)}
          {listing.converted ? (
            <span className="ml-2 text-sm font-semibold text-slate-600">
              ≈ {formatPrice(`${listing.converted.price}.00`, listing.converted.currency)}
            </span>
          ) : null}
        </p>
        <p className="text-sm text-slate-700">
          {listing.year} {listing.make} {listing.model}
        </p>
        <p className="text-sm text-slate-600">{formatMileage(listing.mileage)}</p>
        <p className="text-sm text-slate-600">{placeLabel(listing)}</p>
        <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
          <span>
            Posted <LocalTime at={listing.createdAt} style="day" />
          </span>
          {listing.sellerVerified ? <IdVerifiedBadge /> : null}
        </p>
        <Link
          to={`/vehicle/${listing.id}`}
          className="mt-auto inline-flex justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          View Details
          <span className="sr-only">: {listing.title}</span>
        </Link>
      </div>
    </article>
  );
}

export function ListingCardSkeleton() {
  return (
    <div
      className="animate-pulse overflow-hidden rounded-xl border border-slate-200 bg-white"
      aria-hidden="true"
      data-testid="listing-skeleton"
    >
      <div className="aspect-[4/3] bg-slate-200" />
      <div className="space-y-2 p-4">
        <div className="h-4 w-3/4 rounded bg-slate-200" />
        <div className="h-6 w-1/3 rounded bg-slate-200" />
        <div className="h-3 w-1/2 rounded bg-slate-200" />
        <div className="h-3 w-2/5 rounded bg-slate-200" />
        <div className="mt-4 h-9 rounded bg-slate-200" />
      </div>
    </div>
  );
}
