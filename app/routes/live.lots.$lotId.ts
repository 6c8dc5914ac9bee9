// The lot page's live stream: server-sent events (docs/decisions/1801).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/accounts/session.server";
import { openLotStream } from "~/services/auctions/live.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const stream = await openLotStream(request, user.id, params.lotId ?? "");
  if (!stream) throw new Response("This auction lot does not exist.", { status: 404 });
  return stream;
}
