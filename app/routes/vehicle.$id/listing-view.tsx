import { MessageSellerLink } from "~/components/messages/message-seller-link";
import { Link, useLocation } from "@remix-run/react";
import {
  FavoriteButton,
  ID_VERIFIED_MEANING,
  IdVerifiedBadge,
  ListingBadges,
  placeLabel,
} from "~/components/listings/listing-card";
import { Detail, Gallery, OwnerActions } from "~/components/listings/vehicle-details";
import { useOptionalUser } from "~/services/accounts/use-user";
import {
  BODY_TYPE_LABELS,
  COUNTRY_NAMES,
  capitalise,
  formatMileage,
  formatPrice,
} from "~/services/listings/fields";
import { LocalTime } from "~/components/local-time";
import type { ListingDetail } from "~/services/listings/listings.server";
import type { VinReport } from "~/services/vehicles/vin-report.server";
import { VinFacts } from "~/components/vehicles/vin-facts";

/** A listing's page: photos, price, seller, the owner's actions, description and every detail. */
export function ListingView({ listing, vin }: { listing: ListingDetail; vin: VinReport | null }) {
  const user = useOptionalUser();
  const location = useLocation();
  const details: Array<[string, string | null]> = [
    ["Year", String(listing.year)],
    ["Make", listing.make],
    ["Model", listing.model],
    ["Mileage", listing.mileage === null ? null : formatMileage(listing.mileage)],
    ["Condition", capitalise(listing.condition)],
    ["Body type", listing.bodyType ? BODY_TYPE_LABELS[listing.bodyType] : null],
    ["Fuel type", listing.fuelType ? capitalise(listing.fuelType) : null],
    ["Transmission", listing.transmission ? capitalise(listing.transmission) : null],
    ["Drivetrain", listing.drivetrain],
    ["Exterior color", listing.exteriorColor],
    ["Interior color", listing.interiorColor],
    ["City", listing.city],
    ["State/Province", listing.state],
    ["Country", COUNTRY_NAMES[listing.country]],
    ["ZIP/Postal code", listing.zipCode],
    ["VIN", listing.vin],
  ];

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <Link to="/community-vehicles" className="text-sm font-semibold text-brand-700">
        ← Community Vehicles
      </Link>
      <div className="mt-4 grid gap-8 lg:grid-cols-[1.4fr_1fr]">
        <Gallery photos={listing.photos} title={listing.title} />
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <ListingBadges
              sold={listing.status === "sold"}
              featured={listing.featured}
              condition={listing.condition}
            />
          </div>
          <div className="flex items-start justify-between gap-3">
            <h1 className="text-2xl font-black text-slate-900 sm:text-3xl">{listing.title}</h1>
            <FavoriteButton
              listingId={listing.id}
              isFavorite={listing.isFavorite}
              returnTo={location.pathname}
              signedIn={Boolean(user)}
            />
          </div>
          <p className="text-3xl font-black text-brand-700">
            {formatPrice(listing.price, listing.currency)}
          </p>
          <p className="text-slate-700">
            {listing.year} {listing.make} {listing.model} · {formatMileage(listing.mileage)} ·{" "}
            {placeLabel(listing)}
          </p>
          <p className="text-sm text-slate-500">
            Posted <LocalTime at={listing.createdAt} style="day" />
          </p>

          <section
            aria-labelledby="seller-heading"
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          >
            <h2 id="seller-heading" className="text-xs font-semibold uppercase text-slate-500">
              Seller
            </h2>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-lg font-bold">
              {listing.seller.firstName}
              {listing.seller.verified ? <IdVerifiedBadge /> : null}
            </p>
            <p className="text-sm text-slate-600">
              {listing.seller.verified
                ? ID_VERIFIED_MEANING
                : "This seller has not verified an ID with us yet."}
            </p>
            <p className="text-sm text-slate-600">
              Member since <LocalTime at={listing.seller.memberSince} style="month" />
            </p>
          </section>

          {listing.isOwner ? <OwnerActions id={listing.id} status={listing.status} /> : null}
          {!listing.isOwner && listing.status === "active" ? (
            <MessageSellerLink listingId={listing.id} />
          ) : null}
        </div>
      </div>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1.4fr_1fr]">
        <section aria-labelledby="description-heading">
          <h2 id="description-heading" className="text-xl font-bold">
            Description
          </h2>
          <p className="mt-2 whitespace-pre-line text-slate-700">
            {listing.description || "The seller has not written a description."}
          </p>
        </section>
        <section aria-labelledby="details-heading">
          <h2 id="details-heading" className="text-xl font-bold">
            Vehicle Details
          </h2>
          <dl className="mt-2 grid grid-cols-2 gap-x-4">
            {details.map(([label, value]) => (
              <Detail key={label} label={label} value={value} />
            ))}
          </dl>
          <VinFacts report={vin} />
        </section>
      </div>
    </div>
  );
}
