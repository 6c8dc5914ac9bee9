import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { LocalTime } from "~/components/local-time";
import { requireUser } from "~/services/accounts/session.server";
import { earningsStatement } from "~/services/affiliates/earnings.server";
import { env } from "~/platform/env.server";
import { formatUsd } from "~/utils/money";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Earnings statement · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

/** A provider's statement: every completed job's gross, platform fee and net, and the totals. */
async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const statement = await earningsStatement(user.id);
  return data(
    { ...statement, feePercent: env().PLATFORM_FEE_PERCENT },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export default function EarningsStatement() {
  const { lines, totals, feePercent } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl px-3 py-8 sm:px-6">
      <Link to="/service-orders" className="text-sm font-semibold text-brand-700 hover:underline">
        ← Service Orders
      </Link>
      <h1 className="mt-3 text-2xl font-bold">Earnings statement</h1>
      <p className="mt-1 text-sm text-slate-600">
        Each completed job is credited once: its payout less the {feePercent}% platform fee.
      </p>
      <dl className="mt-5 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Totals">
        <Total label="Jobs completed" value={String(totals.jobs)} />
        <Total label="Gross" value={formatUsd(totals.gross)} />
        <Total label="Platform fees" value={formatUsd(totals.platformFee)} />
        <Total label="Net earnings" value={formatUsd(totals.net)} strong />
      </dl>
      {lines.length === 0 ? (
        <p className="mt-6 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
          No completed jobs yet. Your earnings show here when you complete an order.
        </p>
      ) : (
        <table className="mt-6 w-full table-fixed border-collapse text-left text-sm">
          <caption className="sr-only">Completed jobs</caption>
          <thead>
            <tr className="border-b border-slate-300 text-xs uppercase text-slate-500">
              <th scope="col" className="w-2/5 py-2 pr-2">
                Job
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                Gross
              </th>
              <th scope="col" className="py-2 pr-2 text-right">
                Fee
              </th>
              <th scope="col" className="py-2 text-right">
                Net
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.id} className="border-b border-slate-200 align-top">
                <th scope="row" className="wrap-anywhere py-2 pr-2 font-normal">
                  <Link
                    to={`/service-orders/${line.orderId}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    {line.vehicleLabel}
                  </Link>
                  <span className="block text-xs text-slate-600">{line.route}</span>
                  <span className="block text-xs text-slate-600">
                    #{line.orderId} · <LocalTime at={line.completedAt} />
                  </span>
                </th>
                <td className="py-2 pr-2 text-right tabular-nums">{formatUsd(line.gross)}</td>
                <td className="py-2 pr-2 text-right tabular-nums">
                  −{formatUsd(line.platformFee)}
                </td>
                <td className="py-2 text-right font-semibold tabular-nums">
                  {formatUsd(line.net)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Total({
  label,
  value,
  strong = false,
}: {
  label: string;
  value: string;
  strong?: boolean;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3">
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className={`mt-1 tabular-nums ${strong ? "text-lg font-bold" : "font-semibold"}`}>
        {value}
      </dd>
    </div>
  );
}
