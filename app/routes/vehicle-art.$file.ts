import type { LoaderFunctionArgs } from "@remix-run/node";
import { drawVehicle, parseArtFile } from "~/services/vehicles/drawing";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

/** A drawn side view of a body style in a paint colour: public, immutable, no script. */
async function load({ params }: LoaderFunctionArgs) {
  const art = parseArtFile(params.file ?? "");
  if (!art) return new Response("Not found", { status: 404 });
  return new Response(drawVehicle(art.kind, art.paint, `${art.paint} ${art.kind}`), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=604800, immutable",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
