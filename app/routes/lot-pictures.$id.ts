import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { StorageUnavailableError } from "~/platform/storage/index.server";
import { readLotPicture } from "~/services/auctions/lot-images.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

/**
 * A lot's stored picture (?size=thumb for the 480 px WebP thumbnail): public, like the lot's
 * drawing. An id's picture never changes (a replaced picture gets a new id), so it is cached for
 * a year.
 */
async function load({ request, params }: LoaderFunctionArgs) {
  const size = new URL(request.url).searchParams.get("size") === "thumb" ? "thumb" : "full";
  let picture: Awaited<ReturnType<typeof readLotPicture>>;
  try {
    picture = await readLotPicture(params.id, size);
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    return new Response("This picture is briefly unavailable. Please try again in a moment.", {
      status: 503,
      headers: { "Retry-After": "30", "Cache-Control": "no-store" },
    });
  }
  if (!picture) return new Response("Not found", { status: 404 });
  return new Response(Readable.toWeb(picture.body) as ReadableStream, {
    headers: {
      "Content-Type": picture.info.contentType,
      "Content-Length": String(picture.info.size),
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
