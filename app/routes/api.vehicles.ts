// GET /api/vehicles (the community query set of SPEC.md §7) and POST /api/vehicles (→ id).
// The auction query set of GET /api/vehicles is built on another branch; merging keeps one loader
// that answers whichever set the query carries (see isCommunityQuery).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  createListing,
  ListingLimitError,
  searchListingsFromQuery,
} from "~/services/listings.server";
import { requireListingUser } from "~/services/listing-routes.server";
import { getUser } from "~/services/session.server";
import { jsonError } from "~/utils/http.server";
import { listingSchema, normaliseListingJson } from "~/utils/schemas/listings";

export async function loader({ request }: LoaderFunctionArgs) {
  const viewer = await getUser(request);
  const result = await searchListingsFromQuery(new URL(request.url), viewer?.id);
  if (!result.ok) {
    return jsonError(400, `Invalid query: ${Object.keys(result.errors).join(", ")}`, {
      fields: result.errors,
    });
  }
  const headers = new Headers({ "X-Total-Count": String(result.page.total) });
  if (result.page.nextCursor) headers.set("X-Next-Cursor", result.page.nextCursor);
  return Response.json(result.page.listings, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Method Not Allowed");
  const user = await requireListingUser(request);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return jsonError(400, "Send the listing as JSON");
  }
  // userId in the payload (SPEC.md §7) is ignored: the listing belongs to the signed-in user.
  const parsed = listingSchema.safeParse(normaliseListingJson(body));
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    let formError: string | undefined;
    for (const issue of parsed.error.issues) {
      if (issue.path.length === 0) formError ??= issue.message;
      else fields[String(issue.path[0])] ??= issue.message;
    }
    return jsonError(400, formError ?? Object.values(fields)[0] ?? "Invalid listing", { fields });
  }
  try {
    const id = await createListing(user.id, parsed.data);
    return Response.json({ id }, { status: 201 });
  } catch (error) {
    if (error instanceof ListingLimitError) return jsonError(403, error.message);
    throw error;
  }
}
