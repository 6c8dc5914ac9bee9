import type { LoaderFunctionArgs } from "@remix-run/node";
import { Readable } from "node:stream";
import { readListingPhoto } from "~/services/listing-photos.server";

/** A listing's photo (?size=thumb for the card size): public while the listing is visible. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const size = new URL(request.url).searchParams.get("size") === "thumb" ? "thumb" : "full";
  const photo = await readListingPhoto(params.id, size);
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
