import { HEALTH_HEADERS, healthAnswer } from "~/platform/availability.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load() {
  const { status, body } = await healthAnswer();
  return new Response(body, { status, headers: HEALTH_HEADERS });
}
