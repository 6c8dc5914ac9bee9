import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { RouteErrorBoundary } from "~/components/error-page";
import { errorBoundaryHeaders } from "~/http/http.server";
import { answerInit, replyFor } from "~/http/respond.server";
import { requireUserWithNotice } from "~/http/sign-in-notice.server";
import { keepingTypedForm, takeKeptForm } from "~/http/kept-form.server";
import { redirectWithToast } from "~/http/toast.server";
import { getUser } from "~/services/accounts/session.server";
import {
  ListingNotFoundError,
  deleteListing,
  getListing,
  listingForEdit,
  markListingSold,
  updateListingWithPhotos,
} from "~/services/listings/listings.server";
import {
  DELETED_TOAST,
  MARKED_SOLD_TOAST,
  NOT_LISTED,
  PHOTO_MESSAGES,
  SIGN_IN_TO_POST_TOAST,
  UPDATED_TOAST,
} from "~/services/listings/messages";
import { readListingForm } from "~/services/listings/photos.server";
import { maxListingYear } from "~/services/listings/rules";
import { listingSchema } from "~/services/listings/schemas";
import { isUserError } from "~/utils/user-error";
import { vinReport } from "~/services/vehicles/vin-report.server";
import { EditListing } from "./edit-listing";
import { ListingView } from "./listing-view";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

// A 429's Retry-After survives the error page.
export const headers = errorBoundaryHeaders;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.listing.title} · BidYard` : "Vehicle not found · BidYard" },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const listing = await getListing(params.id, user?.id);
  if (!listing) throw new Response(NOT_LISTED, { status: 404 });
  // the owner's edit typed before a session ended comes back once, in the edit form (record 3320)
  const kept =
    user && listing.isOwner
      ? await takeKeptForm(request, user.id)
      : { restored: null, headers: {} };
  const restored = kept.restored?.fields.intent === "update" ? kept.restored : null;
  return data(
    { listing, vin: await vinReport(listing.vin, listing), maxYear: maxListingYear(), restored },
    { headers: kept.headers },
  );
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const user = await keepingTypedForm(request, () =>
    requireUserWithNotice(request, SIGN_IN_TO_POST_TOAST),
  );
  // every change here is the owner's: someone else's listing is not found before its form or
  // photos are read (record 3202)
  if (!(await listingForEdit(user.id, params.id))) notListed(new ListingNotFoundError());
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
      return data(replyFor(submission, error), answerInit(error.status));
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

export default function VehicleDetails() {
  const { listing, vin, maxYear, restored } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const editing =
    listing.isOwner &&
    (params.get("edit") === "1" || lastResult !== undefined || restored !== null);
  if (!editing) return <ListingView listing={listing} vin={vin} />;
  return (
    <EditListing
      listing={listing}
      restored={restored}
      lastResult={lastResult}
      maxYear={maxYear}
      pending={navigation.state !== "idle" && navigation.formMethod === "POST"}
    />
  );
}

export const ErrorBoundary = RouteErrorBoundary;
