import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { KeptFormNotice, type RestoredForm } from "~/components/kept-form-notice";
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
  restored,
  lastResult,
  maxYear,
  pending,
}: {
  listing: ListingDetail;
  /** What was typed before a session ended (record 3320). */
  restored: RestoredForm | null;
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
      {restored ? (
        <div className="mt-6">
          <KeptFormNotice restored={restored} withFiles />
        </div>
      ) : null}
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
          defaultValue={{ ...editDefaults(listing), ...restored?.fields }}
        >
          <input type="hidden" name="intent" value="update" />
        </ListingForm>
      </div>
    </div>
  );
}
