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
  const minutes = Math.max(0, Math.floor((new Date(endsAt).getTime() - now) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  return days > 0 ? `${days}d ${hours}h` : `${hours}h ${minutes % 60}m`;
}

export default function Auctions() {
  const { lots, next, now } = useLoaderData<typeof loader>();
  return (
    <div className="list">
      <h1>Live Auctions</h1>
      <p>Copart and IAAI lots, with badges and countdowns from the auction clock.</p>
      <div className="cards">
        {lots.map((lot) => (
          <article key={lot.id} className="card" aria-labelledby={`lot-${lot.id}`}>
            <div style={{ position: "relative" }}>
              <img src={lot.image_url ?? "/favicon.svg"} alt="" loading="lazy" />
              <span className="badge">LIVE</span>
              <span className="left">{left(lot.ends_at, now)}</span>
            </div>
            <div className="body">
              <h2 id={`lot-${lot.id}`}>
                <Link to={`/auctions/${lot.id}`}>
                  {lot.year} {lot.make} {lot.model}
                </Link>
              </h2>
              <p>{lot.auction_house === "iaai" ? "IAAI" : "Copart"}</p>
              <p>
                VIN: <span>{lot.vin}</span>
              </p>
              <p>
                Location: {lot.location_city}, {lot.location_state}
              </p>
              <p>Damage: {lot.damage ?? "Unknown"}</p>
              <p>
                Current bid:{" "}
                <strong>
                  {Number(lot.current_bid) > 0 ? usd.format(Number(lot.current_bid)) : "No bids"}
                </strong>
              </p>
              <p>Est. value: {usd.format(Number(lot.estimated_value))}</p>
              <p>
                <Link to={`/auctions/${lot.id}#bid`}>Place Bid</Link>{" "}
                <Link to={`/auctions/${lot.id}?proxy=1#bid`}>Auto Bid</Link>
              </p>
            </div>
          </article>
        ))}
      </div>
      {next ? <Link to={`?cursor=${next}`}>Load More Auctions</Link> : null}
    </div>
  );
}
