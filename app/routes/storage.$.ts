import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { filesystemStorage, StorageUnavailableError } from "~/platform/storage/index.server";
import { requireSameOrigin } from "~/http/http.server";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

// The filesystem driver's signed URLs land here (GET to download, PUT to upload); the signature
// in the URL is the permission. With S3 configured the browser talks to the bucket instead.
async function handle(request: Request) {
  const driver = filesystemStorage();
  if (!driver) return new Response("Not found", { status: 404 });
  try {
    return await driver.handleSignedRequest(request);
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    return new Response(
      "File storage is unavailable right now. Please try again in a few minutes.",
      {
        status: 503,
        headers: { "Retry-After": "30", "Content-Type": "text/plain" },
      },
    );
  }
}

export const loader = (args: LoaderFunctionArgs) =>
  guardResourceLoader(args, ({ request }) => handle(request));
export const action = (args: ActionFunctionArgs) =>
  guardResourceAction(args, ({ request }) => {
    // The browser PUTs from our own pages; nothing else may write here.
    requireSameOrigin(request);
    return handle(request);
  });
