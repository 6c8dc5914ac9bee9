// What must be true of the data after the soak, checked in SQL (and against what the app told
// the simulated users while it ran).
import type pg from "pg";
import type { Ledger } from "./scenarios";
import { SOAK_DOMAIN } from "./setup";

export type Check = { name: string; ok: boolean; detail: string };

async function rows<T extends pg.QueryResultRow>(db: pg.Pool, sql: string, params: unknown[] = []) {
  return (await db.query<T>(sql, params)).rows;
}

/** A check that passes when `sql` returns no rows; the first few offenders are the detail. */
async function none(
  db: pg.Pool,
  name: string,
  sql: string,
  checked: string,
  params: unknown[] = [],
) {
  const offenders = await rows(db, sql, params);
  return {
    name,
    ok: offenders.length === 0,
    detail:
      offenders.length === 0
        ? checked
        : `${offenders.length} offending row(s), e.g. ${JSON.stringify(offenders.slice(0, 3))}`,
  };
}

export async function checkInvariants(
  db: pg.Pool,
  ledger: Ledger,
  soakStartedAt: Date,
  { expectSold }: { expectSold: boolean },
) {
  const checks: Check[] = [];
  const [{ lots, bids, withBids }] = await rows<{ lots: string; bids: string; withBids: string }>(
    db,
    `SELECT (SELECT count(*) FROM lots) AS lots, (SELECT count(*) FROM bids) AS bids,
            (SELECT count(DISTINCT lot_id) FROM bids) AS "withBids"`,
  );
  const lotScope = `${Number(lots).toLocaleString("en-US")} lots, ${Number(bids).toLocaleString("en-US")} bids on ${withBids} lots`;

  checks.push(
    await none(
      db,
      "bid rows per lot = lots.bid_count (a leader's raise of their maximum is not a bid row)",
      `SELECT l.id, l.bid_count, coalesce(b.n, 0) AS rows FROM lots l
         LEFT JOIN (SELECT lot_id, count(*) AS n FROM bids WHERE NOT max_raise GROUP BY lot_id) b
           ON b.lot_id = l.id
        WHERE l.bid_count <> coalesce(b.n, 0)`,
      lotScope,
    ),
  );
  checks.push(
    await none(
      db,
      "lots.current_bid = highest bid",
      `SELECT l.id, l.current_bid, b.top FROM lots l
         LEFT JOIN (SELECT lot_id, max(amount) AS top FROM bids WHERE NOT max_raise
                     GROUP BY lot_id) b ON b.lot_id = l.id
        WHERE l.current_bid <> coalesce(b.top, 0)`,
      lotScope,
    ),
  );
  checks.push(
    await none(
      db,
      "high bidder = owner of the highest bid; high_max = their maximum",
      `SELECT l.id, l.high_bidder_id, top.user_id AS top_bidder, l.high_max, mx.max_amount
         FROM lots l
         LEFT JOIN LATERAL (SELECT user_id FROM bids WHERE lot_id = l.id AND NOT max_raise
                             ORDER BY amount DESC, id DESC LIMIT 1) top ON true
         LEFT JOIN LATERAL (SELECT max(max_amount) AS max_amount FROM bids
                             WHERE lot_id = l.id AND user_id = l.high_bidder_id) mx ON true
        WHERE l.high_bidder_id IS DISTINCT FROM top.user_id
           OR l.high_max IS DISTINCT FROM mx.max_amount`,
      lotScope,
    ),
  );
  checks.push(
    await none(
      db,
      "no bid placed at or after its lot's end",
      `SELECT b.id, b.lot_id, b.created_at, l.ends_at FROM bids b JOIN lots l ON l.id = b.lot_id
        WHERE b.created_at >= l.ends_at OR (l.closed_at IS NOT NULL AND b.created_at > l.closed_at)`,
      `${bids} bids`,
    ),
  );

  const [{ users, entries }] = await rows<{ users: string; entries: string }>(
    db,
    "SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM deposit_entries) AS entries",
  );
  checks.push(
    await none(
      db,
      "each user's deposit = sum of their ledger entries (= last balance_after)",
      `SELECT u.id, u.deposit, coalesce(e.total, 0) AS ledger, last.balance_after
         FROM users u
         LEFT JOIN (SELECT user_id, sum(amount) AS total FROM deposit_entries GROUP BY user_id) e
           ON e.user_id = u.id
         LEFT JOIN LATERAL (SELECT balance_after FROM deposit_entries d WHERE d.user_id = u.id
                             ORDER BY d.id DESC LIMIT 1) last ON true
        WHERE u.deposit <> coalesce(e.total, 0) OR u.deposit <> coalesce(last.balance_after, 0)`,
      `${users} users, ${entries} ledger entries`,
    ),
  );
  checks.push(
    await none(
      db,
      "no user's exposure (leading maxima + unpaid purchases) above their deposit",
      `SELECT u.id, u.deposit, x.exposure FROM users u
         CROSS JOIN LATERAL (SELECT
             coalesce((SELECT sum(high_max) FROM lots WHERE status = 'active' AND high_bidder_id = u.id), 0)
           + coalesce((SELECT sum(amount) FROM purchases WHERE user_id = u.id AND status = 'pending'), 0)
           AS exposure) x
        WHERE x.exposure > u.deposit`,
      `${users} users`,
    ),
  );
  checks.push(
    await none(
      db,
      "captured deposit orders = completed test-gateway orders = deposit ledger entries",
      `SELECT p.id, p.status, g.status AS gateway, e.id AS entry FROM payment_orders p
         LEFT JOIN test_gateway_orders g ON g.id = p.provider_order_id
         LEFT JOIN deposit_entries e ON e.payment_order_id = p.id AND e.kind = 'deposit'
        WHERE p.purpose = 'deposit' AND p.provider = 'test'
          AND ((p.status = 'captured') <> (g.status = 'COMPLETED')
               OR (p.status = 'captured') <> (e.id IS NOT NULL)
               OR (e.id IS NOT NULL AND e.amount <> p.captured_amount))`,
      "every test-gateway deposit order",
    ),
  );
  const confirmed = [...ledger.depositsConfirmed.values()].reduce((a, b) => a + b, 0);
  checks.push(
    await none(
      db,
      "deposits credited once each: soak users' deposit entries = confirmations the app answered",
      `SELECT u.id, count(e.id) AS entries, coalesce(($1::jsonb ->> u.id::text)::int, 0) AS confirmed
         FROM users u LEFT JOIN deposit_entries e ON e.user_id = u.id AND e.kind = 'deposit'
        WHERE u.email LIKE '%@' || $2
        GROUP BY u.id HAVING count(e.id) <> coalesce(($1::jsonb ->> u.id::text)::int, 0)`,
      `${confirmed} confirmed deposits`,
      [JSON.stringify(Object.fromEntries(ledger.depositsConfirmed)), SOAK_DOMAIN],
    ),
  );

  const [closed] = await rows<{ sold: string; unsold: string; purchases: string }>(
    db,
    `SELECT count(*) FILTER (WHERE status = 'sold') AS sold,
            count(*) FILTER (WHERE status = 'unsold') AS unsold,
            (SELECT count(*) FROM purchases) AS purchases
       FROM lots WHERE closed_at >= $1`,
    [soakStartedAt],
  );
  const closedScope = `${closed.sold} sold + ${closed.unsold} unsold lots closed during the soak, ${closed.purchases} purchases in all`;
  checks.push(
    await none(
      db,
      "closed lots have at most one purchase: sold = one, to the high bidder at current_bid; unsold/open = none",
      `SELECT l.id, l.status, count(p.id) AS purchases FROM lots l LEFT JOIN purchases p ON p.lot_id = l.id
        GROUP BY l.id
       HAVING count(p.id) > 1
           OR (l.status = 'sold' AND (count(p.id) <> 1 OR bool_or(p.user_id <> l.high_bidder_id)
                                      OR bool_or(p.amount <> l.current_bid)))
           OR (l.status <> 'sold' AND count(p.id) <> 0)
           OR (l.status = 'unsold' AND l.high_bidder_id IS NOT NULL)`,
      closedScope,
    ),
  );
  checks.push(
    await none(
      db,
      "the closer kept up: no open lot more than 15 s past its end",
      `SELECT id, ends_at FROM lots WHERE status = 'active' AND ends_at < now() - interval '15 seconds'`,
      "all lots",
    ),
  );
  checks.push({
    name: expectSold
      ? "lots closed while the traffic ran, some of them sold"
      : "lots closed while the traffic ran",
    ok: Number(closed.sold) + Number(closed.unsold) > 0 && (!expectSold || Number(closed.sold) > 0),
    detail: closedScope,
  });

  const claimed = [...ledger.claimWins.values()];
  checks.push(
    await none(
      db,
      "each claimed service order has exactly one provider (an approved affiliate)",
      `SELECT o.id, o.status, o.claimed_by FROM service_orders o
         LEFT JOIN affiliate_applications a ON a.user_id = o.claimed_by
        WHERE (o.status <> 'open') <> (o.claimed_by IS NOT NULL AND o.claimed_at IS NOT NULL)
           OR (o.claimed_by IS NOT NULL AND a.status IS DISTINCT FROM 'approved')`,
      "all service orders",
    ),
  );
  checks.push(
    await none(
      db,
      "provider earnings: one credit per completed order, to its claimer, gross = payout = fee + net",
      `SELECT o.id, o.status, o.claimed_by, count(e.id) AS credits
         FROM service_orders o LEFT JOIN provider_earnings e ON e.service_order_id = o.id
        GROUP BY o.id
       HAVING count(e.id) <> CASE WHEN o.status = 'completed' THEN 1 ELSE 0 END
           OR bool_or(e.provider_id IS DISTINCT FROM o.claimed_by AND e.id IS NOT NULL)
           OR bool_or(e.gross <> o.payout OR e.gross <> e.platform_fee + e.net)`,
      "all service orders",
    ),
  );
  checks.push(
    await none(
      db,
      "transport charges: a paid buyer's order has exactly one charge of its price; no other has any",
      `SELECT o.id, o.payment_status, count(c.id) AS charges, sum(c.amount) AS charged
         FROM service_orders o LEFT JOIN service_order_charges c ON c.service_order_id = o.id
        GROUP BY o.id
       HAVING count(c.id) <> CASE WHEN o.payment_status = 'paid' THEN 1 ELSE 0 END
           OR (o.payment_status = 'paid' AND sum(c.amount) <> o.payout)
           OR (o.payment_status = 'unpaid' AND o.status <> 'open')`,
      "all service orders",
    ),
  );
  // the admin's jobs and the buyers' transport jobs are raced the same way
  const raced = [...ledger.ordersCreated, ...ledger.transport.requested];
  const orderRows = await rows<{ id: string; claimed_by: string | null }>(
    db,
    "SELECT id::text, claimed_by FROM service_orders WHERE id = ANY($1::bigint[])",
    [raced],
  );
  const claimProblems = orderRows.filter((o) => {
    const wins = ledger.claimWins.get(o.id) ?? [];
    return o.claimed_by ? wins.length !== 1 || wins[0] !== o.claimed_by : wins.length !== 0;
  });
  checks.push({
    name: "claim races: exactly one 200 per claimed order, and it went to the stored provider",
    ok: claimProblems.length === 0 && orderRows.length === raced.length,
    detail:
      claimProblems.length === 0
        ? `${raced.length} orders raced by ${claimed.reduce((a, w) => a + w.length, 0)} winning claims`
        : `${claimProblems.length} orders disagree, e.g. ${JSON.stringify(
            claimProblems.slice(0, 3).map((o) => ({ ...o, wins: ledger.claimWins.get(o.id) })),
          )}`,
  });

  checks.push(
    await none(
      db,
      "listings per soak user within allowance (non-members ≤ 3 in all, members ≤ plan limit active)",
      `SELECT u.id, count(l.id) AS total, count(l.id) FILTER (WHERE l.status = 'active') AS active,
              p.vehicle_limit
         FROM users u JOIN listings l ON l.user_id = u.id
         LEFT JOIN memberships m ON m.user_id = u.id AND m.status IN ('trialing', 'active')
                                 AND m.current_period_end > now()
         LEFT JOIN membership_plans p ON p.id = m.plan_id
        WHERE u.email LIKE '%@' || $1
        GROUP BY u.id, m.id, p.vehicle_limit
       HAVING (m.id IS NULL AND count(l.id) > 3)
           OR (m.id IS NOT NULL AND p.vehicle_limit IS NOT NULL
               AND count(l.id) FILTER (WHERE l.status = 'active') > p.vehicle_limit)`,
      "soak sellers (the seeds load their demo sellers directly, outside the rule)",
      [SOAK_DOMAIN],
    ),
  );
  const posted = [...ledger.listingsPosted.values()].reduce((a, b) => a + b, 0);
  checks.push(
    await none(
      db,
      "listings stored per seller = listings the app said it posted",
      `SELECT u.id, count(l.id) AS stored, coalesce(($1::jsonb ->> u.id::text)::int, 0) AS answered
         FROM users u LEFT JOIN listings l ON l.user_id = u.id
        WHERE u.email LIKE '%@' || $2
        GROUP BY u.id HAVING count(l.id) <> coalesce(($1::jsonb ->> u.id::text)::int, 0)`,
      `${posted} listings posted`,
      [JSON.stringify(Object.fromEntries(ledger.listingsPosted)), SOAK_DOMAIN],
    ),
  );
  // Purchases (docs/decisions/1703): a paid purchase's entries sum to its invoice total, every
  // deposit debit for a purchase has its purchase entry, and a settled purchase holds nothing.
  checks.push(
    await none(
      db,
      "paid purchase: deposit + gateway entries = invoice total",
      `SELECT p.id, p.amount + p.buyer_fee + p.internet_fee + p.gate_fee + p.broker_fee + p.late_fee
                AS total, coalesce(sum(e.amount), 0) AS paid
         FROM purchases p
         LEFT JOIN purchase_entries e ON e.purchase_id = p.id AND e.kind IN ('deposit', 'gateway')
        WHERE p.status = 'paid' AND p.due_at IS NOT NULL
        GROUP BY p.id
       HAVING coalesce(sum(e.amount), 0)
              <> p.amount + p.buyer_fee + p.internet_fee + p.gate_fee + p.broker_fee + p.late_fee`,
      "every paid purchase",
    ),
  );
  checks.push(
    await none(
      db,
      "purchase deposit debits = purchase entries (no money moved twice or unexplained)",
      `SELECT d.id, d.amount, e.amount AS entry FROM deposit_entries d
         LEFT JOIN purchase_entries e ON e.deposit_entry_id = d.id
        WHERE d.purchase_id IS NOT NULL AND (e.id IS NULL OR e.amount <> -d.amount)`,
      "every deposit entry tied to a purchase",
    ),
  );
  checks.push(
    await none(
      db,
      "unpaid purchases have no payment entries",
      `SELECT p.id FROM purchases p JOIN purchase_entries e ON e.purchase_id = p.id
        WHERE p.status = 'pending'`,
      "every pending purchase",
    ),
  );
  // The buyers' loop after the hammer, against what the app told them (soak/scenarios.ts).
  const paidAnswers = [...ledger.purchasesPaid.values()].reduce((a, b) => a + b, 0);
  checks.push(
    await none(
      db,
      "each invoice settled at most once: a soak purchase is paid iff the app confirmed it exactly once",
      `SELECT p.id, p.status, coalesce(($1::jsonb ->> p.id::text)::int, 0) AS confirmed
         FROM purchases p JOIN users u ON u.id = p.user_id
        WHERE u.email LIKE '%@' || $2
          AND (coalesce(($1::jsonb ->> p.id::text)::int, 0) > 1
               OR (p.status = 'paid') <> (coalesce(($1::jsonb ->> p.id::text)::int, 0) = 1))`,
      `${ledger.purchasesPaid.size} purchases paid by ${paidAnswers} confirmations`,
      [JSON.stringify(Object.fromEntries(ledger.purchasesPaid)), SOAK_DOMAIN],
    ),
  );
  checks.push(
    await none(
      db,
      "purchase gateway orders: captured = completed at the test gateway = its one gateway entry; one capture per purchase at most",
      `SELECT o.id, o.status, g.status AS gateway, e.amount AS entry, pp.purchase_id
         FROM payment_orders o
         JOIN purchase_payment_orders pp ON pp.payment_order_id = o.id
         LEFT JOIN test_gateway_orders g ON g.id = o.provider_order_id
         LEFT JOIN purchase_entries e ON e.payment_order_id = o.id AND e.kind = 'gateway'
        WHERE o.purpose = 'purchase'
          AND ((o.status = 'captured') <> (g.status = 'COMPLETED')
               OR (o.status = 'captured') <> (e.id IS NOT NULL)
               OR (e.id IS NOT NULL AND e.amount <> o.captured_amount)
               OR (o.status = 'captured' AND EXISTS (
                     SELECT 1 FROM payment_orders o2
                       JOIN purchase_payment_orders pp2 ON pp2.payment_order_id = o2.id
                      WHERE pp2.purchase_id = pp.purchase_id AND o2.id <> o.id
                        AND o2.status = 'captured')))`,
      "every purchase payment order",
    ),
  );
  checks.push(
    await none(
      db,
      "no hold left on a settled purchase: a soak buyer's exposure = their unpaid purchases; paid ones have paid_at and a pickup code",
      `SELECT u.id, x.total AS exposure, coalesce(pend.total, 0) AS unpaid, bad.id AS bad_purchase
         FROM users u
         CROSS JOIN LATERAL deposit_exposure(u.id, NULL) x
         -- an unpaid invoice holds its whole total: bid, fees, the late fee once due (record 3510)
         LEFT JOIN LATERAL (SELECT sum(amount + buyer_fee + internet_fee + gate_fee + broker_fee
                                   + CASE WHEN due_at < now()
                                          THEN (SELECT late_fee_cents FROM purchase_terms) / 100.0
                                          ELSE 0 END) AS total
                              FROM purchases
                             WHERE user_id = u.id AND status = 'pending') pend ON true
         LEFT JOIN LATERAL (SELECT id FROM purchases WHERE user_id = u.id AND status = 'paid'
                               AND (paid_at IS NULL OR pickup_code IS NULL) LIMIT 1) bad ON true
        WHERE u.email LIKE 'buyer%@' || $1
          AND (x.total <> coalesce(pend.total, 0) OR bad.id IS NOT NULL)`,
      "soak buyers (they never bid, so a purchase is all their deposit holds)",
      [SOAK_DOMAIN],
    ),
  );
  checks.push(...(await payableChecks(db)));
  const transportPaid = [...ledger.transport.paid.values()].reduce((a, b) => a + b, 0);
  const payRaces = ledger.transport.raced;
  const racedIds = [...payRaces.keys()];
  checks.push(
    await none(
      db,
      "transport races (every way of paying at once): each order the app said was paid is paid, and once (the payable checks)",
      `SELECT o.id, o.payment_status FROM service_orders o
        WHERE o.id = ANY($1::bigint[]) AND o.payment_status <> 'paid'`,
      `${racedIds.length} orders raced, ${[...payRaces.values()].reduce((a, b) => a + b, 0)} answers said paid`,
      [racedIds],
    ),
  );
  checks.push(
    await none(
      db,
      "buyers' transport jobs: paid iff the app confirmed it exactly once; completed = completions answered",
      `SELECT o.id, o.payment_status, o.status,
              coalesce(($1::jsonb ->> o.id::text)::int, 0) AS confirmed
         FROM service_orders o
        WHERE o.id = ANY($2::bigint[])
          AND ((NOT o.id = ANY($4::bigint[])
                AND (coalesce(($1::jsonb ->> o.id::text)::int, 0) > 1
                     OR (o.payment_status = 'paid') <> (coalesce(($1::jsonb ->> o.id::text)::int, 0) = 1)))
               OR (o.status = 'completed') <> (o.id = ANY($3::bigint[])))`,
      `${ledger.transport.requested.length} jobs, ${transportPaid} payments confirmed, ${ledger.transport.completed.length} completed`,
      [
        JSON.stringify(Object.fromEntries(ledger.transport.paid)),
        ledger.transport.requested,
        ledger.transport.completed,
        racedIds,
      ],
    ),
  );
  return checks;
}

/**
 * Every payable, paid exactly once (docs/decisions/3201): transport orders, invoices, deposit
 * orders and membership periods. Per payable at most one gateway capture is kept (a capture that
 * could not pay it is refunded, in full, with its payment_refunds row); the deposit part plus the
 * kept capture is its price; and no capture of a payable is ever credited to the deposit.
 */
export async function payableChecks(db: pg.Pool): Promise<Check[]> {
  const checks: Check[] = [];
  // A capture is kept unless refunds return all of it: sent or pending, or (for money that never
  // belonged to the deposit) refused and left open for a person (record 3502). A deposit's
  // refused refund went back to the balance, so it returns nothing.
  const kept = `(o.status = 'captured' AND o.captured_amount > coalesce((SELECT sum(r.amount)
       FROM payment_refunds r WHERE r.payment_order_id = o.id
        AND (r.status <> 'failed' OR o.purpose <> 'deposit')), 0))`;
  checks.push(
    await none(
      db,
      "no deposit entry backed by a non-deposit payment order (a capture or a refused refund of a transport order, an invoice or a membership never reaches the deposit)",
      `SELECT e.id, e.user_id, e.kind, e.amount, e.memo, o.purpose FROM deposit_entries e
         JOIN payment_orders o ON o.id = e.payment_order_id
        WHERE o.purpose <> 'deposit'`,
      "every deposit entry with a payment order",
    ),
  );
  checks.push(
    await none(
      db,
      "transport: each kept capture pays one order (its one charge, of the captured amount); every other capture refunded in full",
      `SELECT o.id, o.status, o.captured_amount, count(c.id) AS charges FROM payment_orders o
         LEFT JOIN service_order_charges c ON c.payment_order_id = o.id
        WHERE o.purpose = 'service_order'
        GROUP BY o.id
       HAVING count(c.id) > 1
           OR (${kept}) <> (count(c.id) = 1)
           OR bool_or(c.amount <> o.captured_amount)`,
      "every transport payment order",
    ),
  );
  checks.push(
    await none(
      db,
      "transport: per order, kept captures ≤ 1 and deposit charge + captures = the price, exactly once",
      `SELECT s.id, s.payment_status, s.payout, x.deposit, x.captured, x.captures
         FROM service_orders s
         CROSS JOIN LATERAL (SELECT
             coalesce((SELECT -sum(d.amount) FROM service_order_charges c
                         JOIN deposit_entries d ON d.id = c.deposit_entry_id
                        WHERE c.service_order_id = s.id AND c.source = 'deposit'), 0) AS deposit,
             coalesce((SELECT sum(o.captured_amount) FROM service_order_charges c
                         JOIN payment_orders o ON o.id = c.payment_order_id
                        WHERE c.service_order_id = s.id AND c.source = 'gateway'), 0) AS captured,
             (SELECT count(*) FROM service_order_charges c
               WHERE c.service_order_id = s.id AND c.source = 'gateway') AS captures
           ) x
        WHERE x.captures > 1
           OR x.deposit + x.captured <> CASE WHEN s.payment_status = 'paid' THEN s.payout ELSE 0 END`,
      "every transport order",
    ),
  );
  checks.push(
    await none(
      db,
      "invoices: per purchase, kept captures ≤ 1 and deposit + capture = the total, exactly once",
      `SELECT p.id, p.status, x.captures, x.paid
         FROM purchases p
         CROSS JOIN LATERAL (SELECT
             (SELECT count(*) FROM payment_orders o
                JOIN purchase_payment_orders pp ON pp.payment_order_id = o.id
               WHERE pp.purchase_id = p.id AND ${kept}) AS captures,
             coalesce((SELECT sum(e.amount) FROM purchase_entries e
                        WHERE e.purchase_id = p.id AND e.kind IN ('deposit', 'gateway')), 0) AS paid
           ) x
        WHERE x.captures > 1
           OR (p.status = 'paid' AND p.due_at IS NOT NULL AND x.paid
               <> p.amount + p.buyer_fee + p.internet_fee + p.gate_fee + p.broker_fee + p.late_fee)
           OR (p.status <> 'paid' AND (x.paid <> 0 OR x.captures <> 0))`,
      "every purchase",
    ),
  );
  checks.push(
    await none(
      db,
      "deposit orders: each capture credited exactly once, for what was captured; nothing else",
      `SELECT o.id, o.status, o.captured_amount, count(e.id) AS credits, sum(e.amount) AS credited
         FROM payment_orders o
         LEFT JOIN deposit_entries e ON e.payment_order_id = o.id AND e.kind = 'deposit'
        WHERE o.purpose = 'deposit'
        GROUP BY o.id
       HAVING count(e.id) <> CASE WHEN o.status = 'captured' THEN 1 ELSE 0 END
           OR (count(e.id) = 1 AND sum(e.amount) <> o.captured_amount)`,
      "every deposit order",
    ),
  );
  checks.push(
    await none(
      db,
      "memberships: each kept capture applied exactly once, for its price; nothing applied uncaptured; other captures refunded in full",
      `SELECT o.id, o.status, o.captured_amount, m.status AS purchase, m.amount
         FROM payment_orders o
         LEFT JOIN membership_purchases m ON m.payment_order_id = o.id
        WHERE o.purpose = 'membership'
          AND ((${kept}) <> (m.status IS NOT DISTINCT FROM 'applied')
               OR (m.status = 'applied' AND m.amount <> o.captured_amount))`,
      "every membership order",
    ),
  );
  checks.push(
    await none(
      db,
      "memberships: one kept payment per period (no two applied purchases of a user overlap)",
      `SELECT a.user_id, a.id AS first, b.id AS second, a.period_start, a.period_end,
              b.period_start AS second_start, b.period_end AS second_end
         FROM membership_purchases a
         JOIN membership_purchases b ON b.user_id = a.user_id AND b.id > a.id
        WHERE a.status = 'applied' AND b.status = 'applied'
          AND a.period_start < b.period_end AND b.period_start < a.period_end`,
      "every applied membership purchase",
    ),
  );
  checks.push(
    await none(
      db,
      "every unwanted capture (of a transport order, an invoice or a membership) has a completed refund or an open case; none left pending over an hour",
      `SELECT o.id, o.purpose, o.captured_amount, o.refunded_amount,
              (SELECT json_agg(r.status) FROM payment_refunds r WHERE r.payment_order_id = o.id) AS refunds
         FROM payment_orders o
        WHERE o.purpose <> 'deposit' AND o.status = 'captured' AND o.refunded_amount > 0
          AND (o.refunded_amount <> coalesce((SELECT sum(r.amount) FROM payment_refunds r
                                              WHERE r.payment_order_id = o.id
                                                AND r.status IN ('completed', 'failed', 'pending')), 0)
               OR EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_order_id = o.id
                            AND r.status = 'pending' AND r.created_at < now() - interval '1 hour'))`,
      "every refunded capture of a non-deposit payable",
    ),
  );
  return checks;
}
