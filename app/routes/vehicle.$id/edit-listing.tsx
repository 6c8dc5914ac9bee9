import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { ListingForm } from "~/components/listings/listing-form";
import type { ListingDetail } from "~/services/listings/listings.server";

/** The listing's fields as the form's defaults (the form sends strings). */
function editDefaults(listing: ListingDetail) {
  const { photos: _p, seller: _s, isOwner: _o, isFavorite: _f, featured: _x, ...fields } = listing;
  return { ...fields, year: String(listing.year), mileage: listing.mileage ?? "" };
}

/** The owner's edit form: the Post Vehicle fields with the listing's values and photos. */
export function EditListing({
  listing,
  lastResult,
  maxYear,
  pending,
}: {
  listing: ListingDetail;
  lastResult: SubmissionResult<string[]> | undefined;
  maxYear: number;
  pending: boolean;
}) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <Link to={`/vehicle/${listing.id}`} className="text-sm font-semibold text-brand-700">
        ← Back to the listing
      </Link>
      <h1 className="mt-2 text-3xl font-black">Edit listing</h1>
      <div className="mt-6">
        <ListingForm
          id="edit-listing"
          lastResult={lastResult}
          submitLabel="Save Changes"
          pendingLabel="Saving..."
          disabled={false}
          pending={pending}
          maxYear={maxYear}
          existingPhotos={listing.photos}
          defaultValue={editDefaults(listing)}
        >
          <input type="hidden" name="intent" value="update" />
        </ListingForm>
      </div>
    </div>
  );
}
