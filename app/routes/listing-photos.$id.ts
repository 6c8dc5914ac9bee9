import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { StorageUnavailableError } from "~/platform/storage/index.server";
import { readListingPhoto } from "~/services/listings/photos.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

/** A listing's photo (?size=thumb for the card size): public while the listing is visible. */
async function load({ request, params }: LoaderFunctionArgs) {
  const size = new URL(request.url).searchParams.get("size") === "thumb" ? "thumb" : "full";
  let photo: Awaited<ReturnType<typeof readListingPhoto>>;
  try {
    photo = await readListingPhoto(params.id, size);
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    return new Response("This photo is briefly unavailable. Please try again in a moment.", {
      status: 503,
      headers: { "Retry-After": "30", "Cache-Control": "no-store" },
    });
  }
  if (!photo) return new Response("Not found", { status: 404 });
  return new Response(Readable.toWeb(photo.body) as ReadableStream, {
    headers: {
      "Content-Type": photo.info.contentType,
      "Content-Length": String(photo.info.size),
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
