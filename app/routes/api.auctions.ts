import type { LoaderFunctionArgs } from "@remix-run/node";
import { auctionsPageResponse } from "~/modules/auctions/lots-http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return auctionsPageResponse(request);
}
