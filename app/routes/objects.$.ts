import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { signedUrlForUpload } from "~/platform/uploads.server";
import { guardResourceLoader } from "~/http/route-guards.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

/** An objectPath opens its file through a short-lived signed URL: owner or admin only. */
async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = await signedUrlForUpload(user, params["*"] ?? "");
  // Not found and not yours answer the same, so keys cannot be probed.
  if (!url) throw new Response("Not found", { status: 404 });
  return redirect(url, { headers: { "Cache-Control": "private, no-store" } });
}
