// A 24-card list from one query over the bench's lots: open lots by soonest end, filtered by make
// and state, one keyset page at a time (the same cursor form as BidYard's list, so the bench asks
// both for the same page 50).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { pool } from "../db.server";

const PAGE = 24;

type Row = {
  id: string;
  year: number;
  make: string;
  model: string;
  vin: string;
  location_city: string;
  location_state: string;
  damage: string | null;
  auction_house: string;
  current_bid: string;
  estimated_value: string;
  image_url: string | null;
  ends_at: Date;
  ends_us: string;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const where = ["status = 'active'"];
  const values: unknown[] = [];
  const make = params.get("make");
  const state = params.get("location");
  if (make) where.push(`make = $${values.push(make)}`);
  if (state) where.push(`location_state = $${values.push(state)}`);
  const cursor = /^(\d{1,18})\.(\d{1,18})$/.exec(
    Buffer.from(params.get("cursor") ?? "", "base64url").toString(),
  );
  if (cursor) {
    where.push(
      `(ends_at, id) > (timestamptz 'epoch' + $${values.push(cursor[1])} * interval '1 microsecond', $${values.push(cursor[2])})`,
    );
  }
  const { rows } = await pool.query<Row>(
    `SELECT id, year, make, model, vin, location_city, location_state,
            coalesce(primary_damage, damage_type) AS damage, auction_house, current_bid,
            estimated_value, image_urls[1] AS image_url, ends_at,
            (extract(epoch FROM ends_at) * 1000000)::bigint AS ends_us
       FROM lots WHERE ${where.join(" AND ")} ORDER BY ends_at, id LIMIT ${PAGE + 1}`,
    values,
  );
  const page = rows.slice(0, PAGE);
  const last = page[page.length - 1];
  return {
    now: Date.now(),
    lots: page.map(({ ends_us: _, ...lot }) => lot),
    next:
      rows.length > PAGE && last
        ? Buffer.from(`${last.ends_us}.${last.id}`).toString("base64url")
        : null,
  };
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

function left(endsAt: string | Date, now: number) {
  const seconds = Math.max(0, Math.floor((new Date(endsAt).getTime() - now) / 1000));
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `Ends in ${days}d ${hours}h`;
  if (hours > 0) return `Ends in ${hours}h ${minutes}m`;
  return `Ends in ${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
}

const field = "mt-1 rounded-md border border-slate-300 px-3 py-2 font-normal";
const label = "flex flex-col text-sm font-semibold";
const button =
  "inline-flex flex-1 items-center justify-center rounded-md px-3 py-2 text-sm font-semibold";

function Select({ name, title, options }: { name: string; title: string; options: string[] }) {
  return (
    <label className={label}>
      {title}
      <select name={name} className={field} defaultValue="">
        <option value="">All</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

// The page as BidYard's list is laid out (a filter form, then the cards), so the two send the same
// amount of HTML; the filter form here is plain markup.
export default function Auctions() {
  const { lots, next, now } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black sm:text-3xl">Live Auctions</h1>
      <p className="mt-1 text-slate-600">
        Copart and IAAI lots, with badges and countdowns from the auction clock.{" "}
        <Link to="/auctions/results" className="text-brand-700 underline">
          See what lots sold for
        </Link>
      </p>
      <form
        method="get"
        action="/auctions"
        className="mt-5 grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-5"
      >
        <Select name="auctionHouse" title="Auction house" options={["copart", "iaai"]} />
        <Select name="make" title="Make" options={["Ford", "Chevrolet", "Toyota", "Honda"]} />
        <Select
          name="damageType"
          title="Damage type"
          options={["theft", "collision", "flood", "hail"]}
        />
        <Select name="location" title="Location" options={["TX", "CA", "FL", "NY"]} />
        <label className={label}>
          Search make, model or VIN
          <input type="search" name="search" className={field} defaultValue="" />
        </label>
        <details className="sm:col-span-2 lg:col-span-5">
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">
            More Filters
          </summary>
          <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <label className={label}>
              Year from
              <input type="number" name="yearMin" className={field} defaultValue="" />
            </label>
            <label className={label}>
              Year to
              <input type="number" name="yearMax" className={field} defaultValue="" />
            </label>
            <Select
              name="titleType"
              title="Title type"
              options={[
                "clean",
                "salvage",
                "rebuilt",
                "certificate_of_destruction",
                "parts_only",
                "other",
              ]}
            />
            <Select name="runsDrives" title="Runs/drives" options={["yes", "no"]} />
          </div>
        </details>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-5">
          <button
            type="submit"
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            Search
          </button>
          <Link
            to="/auctions"
            className="rounded-md px-4 py-2 text-sm font-semibold text-brand-700"
          >
            Clear filters
          </Link>
        </div>
      </form>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {lots.map((lot) => {
          const title = `${lot.year} ${lot.make} ${lot.model}`;
          const soon = new Date(lot.ends_at).getTime() - now < 60 * 60 * 1000;
          return (
            <article
              key={lot.id}
              className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
              aria-labelledby={`lot-${lot.id}-title`}
            >
              <div className="relative">
                <img
                  src={lot.image_url ?? "/favicon.svg"}
                  alt={`Photo of the ${title}`}
                  loading="lazy"
                  className="aspect-[5/3] w-full bg-slate-200 object-cover"
                />
                <div className="absolute left-2 top-2">
                  <span
                    className={`inline-flex items-center rounded px-2 py-0.5 text-xs font-bold tracking-wide ${soon ? "bg-red-600" : "bg-emerald-600"} text-white`}
                  >
                    {soon ? "ENDING SOON" : "LIVE"}
                  </span>
                </div>
                <time
                  dateTime={new Date(lot.ends_at).toISOString()}
                  className="absolute bottom-2 right-2 rounded bg-slate-900/80 px-2 py-0.5 text-xs font-semibold text-white"
                >
                  {left(lot.ends_at, now)}
                </time>
              </div>
              <div className="flex flex-1 flex-col gap-1 p-3 text-sm">
                <h2 id={`lot-${lot.id}-title`} className="text-base font-bold">
                  <Link to={`/auctions/${lot.id}`} className="hover:underline">
                    {title}
                  </Link>
                </h2>
                <p className="text-xs font-semibold uppercase text-slate-500">
                  {lot.auction_house === "iaai" ? "IAAI" : "Copart"}
                </p>
                <p>
                  <span className="text-slate-500">VIN:</span>{" "}
                  <span className="font-mono">{lot.vin}</span>
                </p>
                <p>
                  <span className="text-slate-500">Location:</span> {lot.location_city},{" "}
                  {lot.location_state}
                </p>
                <p>
                  <span className="text-slate-500">Damage:</span> {lot.damage ?? "Unknown"}
                </p>
                <p>
                  <span className="text-slate-500">Current bid:</span>{" "}
                  <strong>
                    {Number(lot.current_bid) > 0 ? usd.format(Number(lot.current_bid)) : "No bids"}
                  </strong>
                </p>
                <p>
                  <span className="text-slate-500">Est. value:</span>{" "}
                  {usd.format(Number(lot.estimated_value))}
                </p>
                <div className="mt-auto flex gap-2 pt-3">
                  <Link
                    to={`/auctions/${lot.id}#bid`}
                    className={`${button} ${soon ? "bg-red-600 hover:bg-red-700" : "bg-brand-700 hover:bg-brand-800"} text-white`}
                  >
                    {soon ? "BID NOW!" : "Place Bid"}
                  </Link>
                  <Link
                    to={`/auctions/${lot.id}?proxy=1#bid`}
                    className={`${button} border border-brand-700 text-brand-700 hover:bg-brand-50`}
                  >
                    Auto Bid
                  </Link>
                </div>
              </div>
            </article>
          );
        })}
      </div>
      {next ? (
        <p className="mt-6 text-center">
          <Link
            to={`/auctions?cursor=${next}`}
            className="inline-flex rounded-md border border-brand-700 px-5 py-2 font-semibold text-brand-700 hover:bg-brand-50"
          >
            Load More Auctions
          </Link>
        </p>
      ) : null}
    </div>
  );
}
