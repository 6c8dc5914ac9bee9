import type { LoaderFunctionArgs } from "@remix-run/node";
import { auctionsPageResponse } from "~/services/auctions-api.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return auctionsPageResponse(request);
}
