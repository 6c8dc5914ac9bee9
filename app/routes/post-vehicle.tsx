import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { KeptFormNotice } from "~/components/kept-form-notice";
import { AllowanceBanner, LimitReachedPanel } from "~/components/listings/allowance-banner";
import { keepingTypedForm, takeKeptForm } from "~/http/kept-form.server";
import { ListingForm } from "~/components/listings/listing-form";
import { errorBoundaryHeaders } from "~/http/http.server";
import { answerInit, replyFor } from "~/http/respond.server";
import { requireUserWithNotice } from "~/http/sign-in-notice.server";
import { redirectWithToast } from "~/http/toast.server";
import { listingAllowance } from "~/services/listings/allowance.server";
import { ListingLimitError, postListing } from "~/services/listings/listings.server";
import {
  LIMIT_REACHED_TOAST,
  PHOTO_MESSAGES,
  POSTED_TOAST,
  SIGN_IN_TO_POST_TOAST,
} from "~/services/listings/messages";
import { readListingForm } from "~/services/listings/photos.server";
import { maxListingYear } from "~/services/listings/rules";
import { listingSchema } from "~/services/listings/schemas";
import { isUserError } from "~/utils/user-error";
import { guardAction, guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Post Vehicle · BidYard" }];

// a 503 (storage down) keeps its Retry-After on the page (record 3208)
export const headers = errorBoundaryHeaders;

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithNotice(request, SIGN_IN_TO_POST_TOAST);
  // what was typed before a session ended comes back once (see record 3320)
  const allowance = await listingAllowance(user.id);
  // no form is shown without a listing left, so the kept fields wait for one (record 3322)
  const { restored, headers } = allowance.canPost
    ? await takeKeptForm(request, user.id)
    : { restored: null, headers: {} };
  return data({ allowance, maxYear: maxListingYear(), restored }, { headers });
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const user = await keepingTypedForm(request, () =>
    requireUserWithNotice(request, SIGN_IN_TO_POST_TOAST),
  );
  const { formData, photos, photoProblem } = await readListingForm(request, user.id);
  const submission = parseWithZod(formData, { schema: listingSchema });
  const photoErrors: Record<string, string[]> = photoProblem
    ? { photos: [PHOTO_MESSAGES[photoProblem]] }
    : {};
  if (submission.status !== "success" || photoProblem)
    return data(submission.reply({ fieldErrors: photoErrors }), { status: 400 });
  try {
    const id = await postListing(user.id, submission.value, photos);
    return redirectWithToast(`/vehicle/${id}`, POSTED_TOAST);
  } catch (error) {
    // No listing left: the way out is a membership.
    if (error instanceof ListingLimitError)
      return redirectWithToast("/membership", LIMIT_REACHED_TOAST);
    if (!isUserError(error)) throw error;
    return data(replyFor(submission, error), answerInit(error.status));
  }
}

export default function PostVehicle() {
  const { allowance, maxYear, restored } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-black text-slate-900">Post Vehicle</h1>
      <p className="mt-1 text-slate-600">
        List your vehicle for buyers across the US, Canada and Mexico.
      </p>
      {allowance.canPost ? (
        <>
          <div className="mt-6 space-y-3">
            <KeptFormNotice restored={restored} withFiles />
            <AllowanceBanner allowance={allowance} />
          </div>
          <div className="mt-6">
            <ListingForm
              id="post-vehicle"
              lastResult={lastResult}
              submitLabel="Post Vehicle"
              pendingLabel="Posting..."
              disabled={false}
              pending={pending}
              maxYear={maxYear}
              uploadWithProgress
              defaultValue={{ currency: "USD", country: "US", ...restored?.fields }}
            />
          </div>
        </>
      ) : (
        <div className="mt-6">
          <LimitReachedPanel allowance={allowance} />
        </div>
      )}
    </div>
  );
}
