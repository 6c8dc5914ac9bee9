import { parseWithZod } from "@conform-to/zod/v4";
import { errorBoundaryHeaders } from "~/http/http.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useSearchParams,
  isRouteErrorResponse,
  useRouteError,
} from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { ConditionBadge, FavoriteButton, placeLabel } from "~/components/listings/listing-card";
import { ListingForm } from "~/components/listings/listing-form";
import { Detail, Gallery, OwnerActions } from "~/components/listings/vehicle-details";
import {
  ListingNotFoundError,
  deleteListing,
  getListing,
  markListingSold,
  updateListingWithPhotos,
} from "~/modules/listings/listings.server";
import { readListingForm } from "~/modules/listings/photos.server";
import {
  DELETED_TOAST,
  MARKED_SOLD_TOAST,
  NOT_LISTED,
  PHOTO_MESSAGES,
  SIGN_IN_TO_POST_TOAST,
  UPDATED_TOAST,
} from "~/modules/listings/messages";
import { maxListingYear } from "~/modules/listings/rules";
import { getUser } from "~/modules/accounts/session.server";
import { replyFor } from "~/http/respond.server";
import { requireUserWithNotice } from "~/http/sign-in-notice.server";
import { redirectWithToast } from "~/http/toast.server";
import { isUserError } from "~/utils/user-error";
import {
  BODY_TYPE_LABELS,
  COUNTRY_NAMES,
  capitalise,
  formatMileage,
  formatPostedDate,
  formatPrice,
} from "~/modules/listings/fields";
import { listingSchema } from "~/modules/listings/schemas";
import { useOptionalUser } from "~/modules/accounts/use-user";

// A 429's Retry-After survives the error page.
export const headers = errorBoundaryHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.listing.title} · BidYard` : "Vehicle not found · BidYard" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const listing = await getListing(params.id, user?.id);
  if (!listing) throw new Response(NOT_LISTED, { status: 404 });
  return { listing, maxYear: maxListingYear() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUserWithNotice(request, SIGN_IN_TO_POST_TOAST);
  const { formData: form, photos, photoProblem } = await readListingForm(request, user.id);
  const intent = form.get("intent");
  if (intent === "update") {
    const submission = parseWithZod(form, { schema: listingSchema });
    const photoErrors: Record<string, string[]> = photoProblem
      ? { photos: [PHOTO_MESSAGES[photoProblem]] }
      : {};
    if (submission.status !== "success" || photoProblem)
      return data(submission.reply({ fieldErrors: photoErrors }), { status: 400 });
    const remove = form.getAll("removePhotos").map(String);
    try {
      const id = await updateListingWithPhotos(user.id, params.id, submission.value, {
        photos,
        remove,
      });
      return redirectWithToast(`/vehicle/${id}`, UPDATED_TOAST);
    } catch (error) {
      notListed(error);
      if (!isUserError(error)) throw error;
      return data(replyFor(submission, error), { status: error.status });
    }
  }
  try {
    if (intent === "markSold") {
      const id = await markListingSold(user.id, params.id);
      return redirectWithToast(`/vehicle/${id}`, MARKED_SOLD_TOAST);
    }
    if (intent === "delete") {
      await deleteListing(user.id, params.id);
      return redirectWithToast("/community-vehicles", DELETED_TOAST);
    }
  } catch (error) {
    notListed(error);
    throw error;
  }
  throw new Response("Unknown action", { status: 400 });
}

/** Someone else's listing reads as not found (no hint that it exists): the page's 404. */
function notListed(error: unknown) {
  if (error instanceof ListingNotFoundError)
    throw new Response(error.message, { status: error.status });
}

function editDefaults(listing: ReturnType<typeof useLoaderData<typeof loader>>["listing"]) {
  const { photos: _p, seller: _s, isOwner: _o, isFavorite: _f, featured: _x, ...fields } = listing;
  return { ...fields, year: String(listing.year), mileage: listing.mileage ?? "" };
}

export default function VehicleDetails() {
  const { listing, maxYear } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const user = useOptionalUser();
  const location = useLocation();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const editing = listing.isOwner && (params.get("edit") === "1" || lastResult !== undefined);

  if (editing) {
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
            pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
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
            {listing.status === "sold" ? (
              <span className="rounded-full bg-slate-800 px-2 py-0.5 text-xs font-bold text-white">
                Sold
              </span>
            ) : null}
            {listing.featured ? (
              <span className="rounded-full bg-accent-500 px-2 py-0.5 text-xs font-bold text-slate-900">
                Featured
              </span>
            ) : null}
            <ConditionBadge condition={listing.condition} />
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
          <p className="text-sm text-slate-500">Posted {formatPostedDate(listing.createdAt)}</p>

          <section
            aria-labelledby="seller-heading"
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          >
            <h2 id="seller-heading" className="text-xs font-semibold uppercase text-slate-500">
              Seller
            </h2>
            <p className="mt-1 flex items-center gap-2 text-lg font-bold">
              {listing.seller.firstName}
              {listing.seller.verified ? (
                <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">
                  Verified
                </span>
              ) : null}
            </p>
            <p className="text-sm text-slate-600">
              Member since{" "}
              {new Intl.DateTimeFormat("en-US", {
                month: "long",
                year: "numeric",
                timeZone: "UTC",
              }).format(new Date(listing.seller.memberSince))}
            </p>
          </section>

          {listing.isOwner ? <OwnerActions id={listing.id} status={listing.status} /> : null}
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
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <ErrorPage
      status={status}
      message={isRouteErrorResponse(error) ? String(error.data ?? "") : undefined}
    />
  );
}
