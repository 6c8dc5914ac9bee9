// A lot page as a small app would read it (the bench's lot row, docs/decisions/3402): the signed-in
// user, then the lot, its newest bids and the user's open holds in one REPEATABLE READ snapshot, as
// BidYard's lot page reads them.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getUser, pool } from "../db.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows: lots } = await client.query(
      `SELECT id, year, make, model, vin, location_city, location_state,
              coalesce(primary_damage, damage_type) AS damage, auction_house, current_bid,
              estimated_value, bid_count, image_urls, starts_at, ends_at, status
         FROM lots WHERE id = $1`,
      [params.lotId],
    );
    if (!lots[0]) throw new Response("This auction lot does not exist.", { status: 404 });
    const { rows: bids } = await client.query(
      `SELECT id, amount, created_at FROM bids WHERE lot_id = $1 ORDER BY id DESC LIMIT 20`,
      [params.lotId],
    );
    const { rows: holds } = await client.query(
      `SELECT coalesce(sum(high_max), 0) AS held FROM lots
        WHERE high_bidder_id = $1 AND status = 'active'`,
      [user?.id ?? null],
    );
    await client.query("COMMIT");
    return { lot: lots[0], bids, held: holds[0].held, deposit: user?.deposit ?? "0" };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export default function Lot() {
  const { lot, bids, held, deposit } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-7xl px-3 py-6 sm:px-6">
      <Link to="/auctions" className="text-brand-700 underline">
        Back to auctions
      </Link>
      <h1 className="mt-2 text-2xl font-black">
        {lot.year} {lot.make} {lot.model}
      </h1>
      <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
        <dt>VIN</dt>
        <dd>{lot.vin}</dd>
        <dt>Location</dt>
        <dd>
          {lot.location_city}, {lot.location_state}
        </dd>
        <dt>Damage</dt>
        <dd>{lot.damage}</dd>
        <dt>Current bid</dt>
        <dd>{usd.format(Number(lot.current_bid))}</dd>
        <dt>Bids</dt>
        <dd>{lot.bid_count}</dd>
        <dt>Buying power</dt>
        <dd>{usd.format(Number(deposit) * 10 - Number(held))}</dd>
      </dl>
      <form method="post" className="mt-4 flex gap-2">
        <label className="flex flex-col text-sm font-semibold">
          Your bid
          <input name="amount" type="number" className="rounded-md border px-3 py-2" />
        </label>
        <button className="rounded-md bg-brand-700 px-4 py-2 text-white">Place Bid</button>
      </form>
      <h2 className="mt-6 text-lg font-bold">Bid history</h2>
      <ul>
        {bids.map((bid) => (
          <li key={bid.id}>
            {usd.format(Number(bid.amount))} · {new Date(bid.created_at).toISOString()}
          </li>
        ))}
      </ul>
    </div>
  );
}
