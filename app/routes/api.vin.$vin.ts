import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/http/http.server";
import { requireUser } from "~/services/accounts/session.server";
import { vinPrefill } from "~/services/listings/vin-prefill.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/**
 * GET /api/vin/:vin: what the posting form may fill in from a VIN (body type, fuel, and the year,
 * make and model it decodes to), for sellers with scripts on; without them the server fills the
 * same on posting (docs/decisions/2854).
 */
async function load({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const facts = await vinPrefill(params.vin ?? "");
  if (!facts) return jsonError(400, "Enter the 17 characters of a VIN with a valid check digit.");
  return Response.json(facts, { headers: { "Cache-Control": "private, max-age=3600" } });
}
