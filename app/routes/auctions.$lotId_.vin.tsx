// GET /auctions/:lotId/vin: every fact the lot's VIN decodes to, on its own page (record 3544).
// The lot page shows the VIN's warning and links here, so its own answer stays small.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { VinFacts } from "~/components/vehicles/vin-facts";
import { requireUser } from "~/services/accounts/session.server";
import { getLot } from "~/services/auctions/lots.server";
import { vinReport } from "~/services/vehicles/vin-report.server";
import { guardLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `What the VIN says · ${data.lot.year} ${data.lot.make} ${data.lot.model} · BidYard`
      : "What the VIN says · BidYard",
  },
];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const found = await getLot(params.lotId ?? "", user.id);
  if (!found) throw new Response("This auction lot does not exist.", { status: 404 });
  const { id, year, make, model, lotNumber, vin } = found;
  return {
    lot: { id, year, make, model, lotNumber },
    report: await vinReport(vin, found),
  };
}

export default function LotVinPage() {
  const { lot, report } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to={`/auctions/${lot.id}`} className="text-brand-700 underline">
          ← Back to the {lot.year} {lot.make} {lot.model} (lot {lot.lotNumber})
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-black">
        {lot.year} {lot.make} {lot.model}: its VIN
      </h1>
      {report ? (
        <VinFacts report={report} />
      ) : (
        <p className="mt-4 text-sm text-slate-600">This lot has no VIN that can be decoded.</p>
      )}
    </div>
  );
}
