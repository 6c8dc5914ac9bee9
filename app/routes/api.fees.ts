// GET /api/fees: the buyer fee schedules every invoice is written from (bands by sale price), for
// the bid dialog's "if you win at $X" line. Public, like an auction house's published fee table.
import { data } from "@remix-run/node";
import { loadSchedules } from "~/services/purchases/schedules.server";
import { guardResourceLoader } from "~/http/route-guards.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { replicaReads } from "~/http/replica-reads";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);
export const handle = replicaReads;

async function load() {
  return data(
    { schedules: await loadSchedules() },
    { headers: { "Cache-Control": "public, max-age=60" } },
  );
}
