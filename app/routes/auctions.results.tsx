import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { SoldLotRow } from "~/components/vehicles/sold-lot-row";
import { requireUser } from "~/services/accounts/session.server";
import { TITLE_OPTIONS } from "~/services/auctions/options";
import { searchSoldLots } from "~/services/results/results.server";
import { DAMAGE_TYPES } from "~/services/auctions/options";
import { parseResultsQuery, RESULTS_LIMIT } from "~/services/results/schemas";
import { POPULAR_MAKES } from "~/services/listings/fields";
import { formatUsd } from "~/utils/money";
import { guardLoader } from "~/http/route-guards.server";
import { replicaReads } from "~/http/replica-reads";

export const meta: MetaFunction = () => [{ title: "Sold results · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);
export const handle = replicaReads;

/** What sold lots went for: a GET search by make, model, years, damage and title. */
async function load({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const params = new URL(request.url).searchParams;
  const values = Object.fromEntries(
    ["make", "model", "yearFrom", "yearTo", "damage", "title"].map((k) => [k, params.get(k) ?? ""]),
  );
  const parsed = parseResultsQuery(params);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    return data({ values, problems, results: null }, { status: 400 });
  }
  return { values, problems: [] as string[], results: await searchSoldLots(parsed.data) };
}

const field = "mt-1 block w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm";
const label = (value: string) => value[0].toUpperCase() + value.slice(1);

export default function SoldResults() {
  const { values, problems, results } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl px-3 py-6 sm:px-6">
      <p className="text-sm">
        <Link to="/auctions" className="text-brand-700 underline">
          ← Back to Live Auctions
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-black sm:text-3xl">Sold results</h1>
      <p className="text-sm text-slate-600">
        What closed lots sold for: the final bid each one closed on.
      </p>

      <Form
        method="get"
        className="mt-4 grid grid-cols-2 gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-6"
      >
        <label className="col-span-2 text-sm font-medium sm:col-span-1">
          Make
          <input name="make" defaultValue={values.make} list="results-makes" className={field} />
          <datalist id="results-makes">
            {POPULAR_MAKES.map((make) => (
              <option key={make} value={make} />
            ))}
          </datalist>
        </label>
        <label className="col-span-2 text-sm font-medium sm:col-span-1">
          Model
          <input name="model" defaultValue={values.model} className={field} />
        </label>
        <label className="text-sm font-medium">
          Year from
          <input
            name="yearFrom"
            defaultValue={values.yearFrom}
            inputMode="numeric"
            className={field}
          />
        </label>
        <label className="text-sm font-medium">
          Year to
          <input name="yearTo" defaultValue={values.yearTo} inputMode="numeric" className={field} />
        </label>
        <label className="text-sm font-medium">
          Damage
          <select name="damage" defaultValue={values.damage} className={field}>
            <option value="">Any</option>
            {DAMAGE_TYPES.map((d) => (
              <option key={d} value={d}>
                {label(d)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm font-medium">
          Title
          <select name="title" defaultValue={values.title} className={field}>
            <option value="">Any</option>
            {TITLE_OPTIONS.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <div className="col-span-2 sm:col-span-6">
          <button
            type="submit"
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white"
          >
            Search sold lots
          </button>
        </div>
      </Form>

      {problems.length > 0 ? (
        <div
          role="alert"
          className="mt-4 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800"
        >
          <p className="font-semibold">Those filters cannot be used:</p>
          <ul className="list-disc pl-5">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {results ? (
        <section aria-labelledby="results-heading" className="mt-6">
          <h2 id="results-heading" className="text-lg font-bold" data-testid="results-summary">
            {results.summary.count === 0
              ? "No sold lots match"
              : `${results.summary.count.toLocaleString("en-US")} sold · median ${formatUsd(results.summary.median!)} · middle half ${formatUsd(results.summary.low!)} – ${formatUsd(results.summary.high!)}`}
          </h2>
          {results.summary.count > RESULTS_LIMIT ? (
            <p className="text-sm text-slate-600">The newest {RESULTS_LIMIT} are listed.</p>
          ) : null}
          <ul className="mt-2">
            {results.lots.map((lot) => (
              <SoldLotRow key={lot.id} lot={lot} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
