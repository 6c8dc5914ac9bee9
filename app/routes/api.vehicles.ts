// GET /api/vehicles answers both query sets: the auction set when the call carries auctionHouse,
// damageType, location or status (the auction client always sends status), the community set
// otherwise. POST /api/vehicles posts a community listing (→ id), as JSON or as the Post Vehicle
// form (multipart, with photos).
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { isAuctionQuery, readAuctionQuery, searchLots } from "~/services/auctions/lots.server";
import { jsonError } from "~/http/http.server";
import { keepingTypedForm } from "~/http/kept-form.server";
import { readJson } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { requireUserWithNotice } from "~/http/sign-in-notice.server";
import { setToastHeader } from "~/http/toast.server";
import { getUser, requireUser } from "~/services/accounts/session.server";
import {
  ListingLimitError,
  postListing,
  searchListingsFromQuery,
} from "~/services/listings/listings.server";
import {
  LIMIT_REACHED_TOAST,
  PHOTO_MESSAGES,
  POSTED_TOAST,
  SIGN_IN_TO_POST_TOAST,
} from "~/services/listings/messages";
import { readListingForm } from "~/services/listings/photos.server";
import {
  listingSchema,
  normaliseListingJson,
  type ListingInput,
} from "~/services/listings/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

function load({ request }: LoaderFunctionArgs) {
  return isAuctionQuery(new URL(request.url).searchParams)
    ? auctionVehiclesResponse(request)
    : communityVehicles(request);
}

/** The auction lots as a list, the total in X-Total-Count, the next keyset page in Link. */
async function auctionVehiclesResponse(request: Request) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  try {
    const page = await searchLots(readAuctionQuery(url.searchParams), user.id);
    const headers = new Headers({
      "X-Total-Count": `${page.total}${page.totalCapped ? "+" : ""}`,
    });
    if (page.nextCursor) {
      url.searchParams.set("cursor", page.nextCursor);
      headers.set("Link", `<${url.pathname}${url.search}>; rel="next"`);
    }
    return Response.json(page.vehicles, { headers });
  } catch (error) {
    return errorJson(error);
  }
}

/** The community query set: a JSON list, X-Total-Count and X-Next-Cursor. */
async function communityVehicles(request: Request) {
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

/** The first message per field (and for the form as a whole) of a failed parse. */
function firstErrors(issues: Array<{ path: PropertyKey[]; message: string }>): Parsed {
  const fields: Record<string, string> = {};
  let formError: string | undefined;
  for (const issue of issues) {
    if (issue.path.length === 0) formError ??= issue.message;
    else fields[String(issue.path[0])] ??= issue.message;
  }
  return { ok: false, formError, fields };
}

/** The listing from the Post Vehicle form: its fields, its photos, and whether the page sent it. */
async function fromForm(request: Request, userId: string) {
  const form = await readListingForm(request, userId);
  const submission = parseWithZod(form.formData, { schema: listingSchema });
  let parsed: Parsed =
    submission.status === "success"
      ? { ok: true, input: submission.value }
      : firstErrors(
          Object.entries(submission.error ?? {}).flatMap(([path, messages]) =>
            (messages ?? []).map((message: string) => ({ path: path ? [path] : [], message })),
          ),
        );
  if (form.photoProblem) {
    parsed = {
      ok: false,
      formError: parsed.ok ? undefined : parsed.formError,
      fields: { ...(parsed.ok ? {} : parsed.fields), photos: PHOTO_MESSAGES[form.photoProblem] },
    };
  }
  // The Post Vehicle page sends its form here with JS on, to show upload progress; it then wants
  // the same flash message as the form post.
  return { parsed, photos: form.photos, fromPage: form.formData.get("source") === "page" };
}

/** The listing as JSON. A userId in it is ignored: the listing belongs to the signed-in user. */
async function fromJson(request: Request) {
  const result = listingSchema.safeParse(normaliseListingJson(await readJson(request)));
  const parsed: Parsed = result.success
    ? { ok: true, input: result.data }
    : firstErrors(result.error.issues);
  return { parsed, photos: [] as Uint8Array[], fromPage: false };
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/** POST /api/vehicles → 201 {id}; a refusal is a 4xx JSON answer (403 when none is left). */
async function act({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method Not Allowed");
  // the Post Vehicle page's upload keeps its typed fields for the sign-in too (see record 3320)
  const user = await keepingTypedForm(
    request,
    () => requireUserWithNotice(request, SIGN_IN_TO_POST_TOAST),
    "/post-vehicle",
  );
  const multipart = (request.headers.get("content-type") ?? "").startsWith("multipart/form-data");
  const { parsed, photos, fromPage } = multipart
    ? await fromForm(request, user.id)
    : await fromJson(request);
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
    const response = errorJson(error);
    if (error instanceof ListingLimitError && fromPage) {
      response.headers.append("Set-Cookie", await setToastHeader(LIMIT_REACHED_TOAST));
    }
    return response;
  }
}
