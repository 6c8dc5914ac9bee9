// GET /auctions/:lotId/comparables: the recent comparable sales the lot's likely price rests on,
// with their photos, on their own page (record 3544). The lot page keeps the likely price and
// the median, and links here.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ComparableSales } from "~/components/vehicles/comparable-sales";
import { requireUser } from "~/services/accounts/session.server";
import { getLot } from "~/services/auctions/lots.server";
import { comparableSales } from "~/services/results/results.server";
import { guardLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `What similar lots sold for · ${data.lot.year} ${data.lot.make} ${data.lot.model} · BidYard`
      : "What similar lots sold for · BidYard",
  },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const found = await getLot(params.lotId ?? "", user.id);
  if (!found) throw new Response("This auction lot does not exist.", { status: 404 });
  const { id, year, make, model, lotNumber } = found;
  return { lot: { id, year, make, model, lotNumber }, comparables: await comparableSales(found) };
}

export default function LotComparablesPage() {
  const { lot, comparables } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl space-y-4 px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to={`/auctions/${lot.id}`} className="text-brand-700 underline">
          ← Back to the {lot.year} {lot.make} {lot.model} (lot {lot.lotNumber})
        </Link>
      </p>
      <ComparableSales comparables={comparables} lot={lot} headingLevel={1} />
    </div>
  );
}
