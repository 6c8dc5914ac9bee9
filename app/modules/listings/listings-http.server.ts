// The community side of /api/vehicles (SPEC.md §7), shaped like auctions-api.server so the
// merged route only chooses between the two query sets.
import { parseWithZod } from "@conform-to/zod/v4";
import {
  ListingLimitError,
  postListing,
  searchListingsFromQuery,
} from "~/modules/listings/listings.server";
import {
  PHOTO_MESSAGES,
  PhotoRejectedError,
  readListingForm,
} from "~/modules/listings/photos.server";
import {
  LIMIT_REACHED_TOAST,
  POSTED_TOAST,
  requireListingUser,
} from "~/modules/listings/route-helpers.server";
import { setToastHeader } from "~/http/toast.server";
import { getUser } from "~/modules/accounts/session.server";
import { jsonError } from "~/http/http.server";
import { listingSchema, normaliseListingJson, type ListingInput } from "~/modules/listings/schemas";

/** GET /api/vehicles, community query set: a JSON list, X-Total-Count and X-Next-Cursor. */
export async function communityVehiclesResponse(request: Request) {
  const viewer = await getUser(request);
  const result = await searchListingsFromQuery(new URL(request.url), viewer?.id);
  if (!result.ok) {
    return jsonError(400, `Invalid query: ${Object.keys(result.errors).join(", ")}`, {
      fields: result.errors,
    });
  }
  const headers = new Headers({
    "X-Total-Count": `${result.page.total}${result.page.totalCapped ? "+" : ""}`,
  });
  if (result.page.nextCursor) headers.set("X-Next-Cursor", result.page.nextCursor);
  return Response.json(result.page.listings, { headers });
}

type Parsed =
  | { ok: true; input: ListingInput }
  | { ok: false; formError?: string; fields: Record<string, string> };

function firstErrors(issues: Array<{ path: PropertyKey[]; message: string }>): Parsed {
  const fields: Record<string, string> = {};
  let formError: string | undefined;
  for (const issue of issues) {
    if (issue.path.length === 0) formError ??= issue.message;
    else fields[String(issue.path[0])] ??= issue.message;
  }
  return { ok: false, formError, fields };
}

/** POST /api/vehicles: JSON (SPEC.md §7) or the Post Vehicle form as multipart → 201 {id}. */
export async function postVehicleResponse(request: Request) {
  if (request.method !== "POST") return jsonError(405, "Method Not Allowed");
  const user = await requireListingUser(request);
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  let parsed: Parsed;
  let photos: Uint8Array[] = [];
  // The Post Vehicle page sends its form here with JS on, to show upload progress; it then wants
  // the same flash message as the form post.
  let fromPage = false;
  if (multipart) {
    const form = await readListingForm(request, user.id);
    photos = form.photos;
    fromPage = form.formData.get("source") === "page";
    const submission = parseWithZod(form.formData, { schema: listingSchema });
    parsed =
      submission.status === "success"
        ? { ok: true, input: submission.value }
        : firstErrors(
            Object.entries(submission.error ?? {}).flatMap(([path, messages]) =>
              (messages ?? []).map((message: string) => ({ path: path ? [path] : [], message })),
            ),
          );
    if (form.photoProblem) {
      const fields = parsed.ok ? {} : parsed.fields;
      parsed = {
        ok: false,
        formError: parsed.ok ? undefined : parsed.formError,
        fields: { ...fields, photos: PHOTO_MESSAGES[form.photoProblem] },
      };
    }
  } else {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return jsonError(400, "Send the listing as JSON");
    }
    // userId in the payload (SPEC.md §7) is ignored: the listing belongs to the signed-in user.
    const result = listingSchema.safeParse(normaliseListingJson(body));
    parsed = result.success ? { ok: true, input: result.data } : firstErrors(result.error.issues);
  }
  if (!parsed.ok) {
    const message = parsed.formError ?? Object.values(parsed.fields)[0] ?? "Invalid listing";
    return jsonError(400, message, { fields: parsed.fields });
  }
  try {
    const id = await postListing(user.id, parsed.input, photos);
    const headers = new Headers();
    if (fromPage) headers.append("Set-Cookie", await setToastHeader(POSTED_TOAST));
    return Response.json({ id }, { status: 201, headers });
  } catch (error) {
    if (error instanceof ListingLimitError) {
      const response = jsonError(403, error.message, { redirectTo: "/membership" });
      if (fromPage)
        response.headers.append("Set-Cookie", await setToastHeader(LIMIT_REACHED_TOAST));
      return response;
    }
    if (error instanceof PhotoRejectedError)
      return jsonError(error.status, error.message, { fields: { photos: error.message } });
    throw error;
  }
}
