// The `jobs` part of `npm run bench` (docs/decisions/3567): the queue's figures on an idle server.
// A job worker (build/server/jobs.js, as Fly's worker group runs it) beside the bench's production
// server, sending to the local mail catcher (scripts/mail-catcher.ts, its /messages.json). On
// LOTS fresh lots two bidders bid over HTTP, the second outbidding the first; then the lots are
// set to end a few seconds apart. Figures: the outbid e-mail from the bid that outbid to the
// catcher's receipt, the "You won" from the lot's end to the receipt, the close from the lot's end
// to its closed_at.
import pg from "pg";
import { freePort } from "../tests/support/cluster";
import { describe, stats } from "../soak/latency";
import { JobLedger, startJobWorker, stopJobWorker } from "../soak/worker";
import type { Bench } from "./harness";

const LOTS = Number(process.env.BENCH_JOBS_LOTS ?? 10);
/** The first lot ends this long after the bids (after the notices job's 15 s turn), then one every 2 s. */
const FIRST_END_S = 20;
const EVERY_S = 2;
const TARGET_P95_S = 2;
const CLOSE_P99_S = 1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Caught = { messageId: string | null; receivedAt: string };

export async function benchJobs(options: {
  bench: Bench;
  db: pg.Pool;
  env: Record<string, string>;
  base: string;
  /** two signed-in, funded bidders */
  cookies: [string, string];
  smtpUrl: string;
  mailCatcherUrl: string;
}) {
  const { bench, db, base, cookies } = options;
  const row = bench.row.bind(bench);
  const log = bench.log.bind(bench);
  const ledger = new JobLedger();
  const worker = await startJobWorker(
    { ...options.env, SMTP_URL: options.smtpUrl },
    await freePort(),
    1,
    ledger,
  );
  bench.process("the job worker", worker.proc.pid);
  const stop = bench.onStop(
    "the job worker",
    () => stopJobWorker(worker.proc),
    () => worker.proc.kill("SIGKILL"),
  );
  try {
    // what came due before it started (scale lots that ended since the seeding) runs first: the
    // figures are taken once nothing is due
    const due = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            `SELECT count(*) AS n FROM graphile_worker._private_jobs
              WHERE run_at <= now() AND attempts < max_attempts`,
          )
        ).rows[0].n,
      );
    const backlog = await due();
    const t0 = Date.now();
    while ((await due()) > 0) {
      if (Date.now() - t0 > 180_000) throw new Error("the job worker's backlog never emptied");
      await sleep(250);
    }
    log(
      `job worker pid ${worker.proc.pid}: ${backlog} jobs due at its start, done in ${Date.now() - t0} ms`,
    );

    const { rows: lots } = await db.query<{ id: string }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
         location_state, estimated_value, starts_at, ends_at)
       SELECT 'copart', 'J' || substr(md5(random()::text), 1, 12), 'BENCHJOBS0000000', 2020,
              'Ford', 'F-150', 'Dallas', 'TX', 20000, now() - interval '1 hour',
              now() + interval '1 day'
         FROM generate_series(1, $1) RETURNING id::text`,
      [LOTS],
    );
    const bid = async (cookie: string, lotId: string, amount: number) => {
      const response = await fetch(`${base}/api/bids`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", origin: base },
        body: JSON.stringify({ vehicleId: lotId, amount: String(amount), isProxyBid: false }),
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`bid answered ${response.status}: ${text}`);
    };
    for (const { id } of lots) {
      await bid(cookies[0], id, 50);
      await bid(cookies[1], id, 100);
    }
    // the ends set after the bids (a bid in a lot's last two minutes would move its end)
    await db.query(
      `UPDATE lots SET ends_at = now() + ($2::int + $3::int * (k - 1)) * interval '1 second'
         FROM unnest($1::bigint[]) WITH ORDINALITY AS u(id, k) WHERE lots.id = u.id`,
      [lots.map((l) => l.id), FIRST_END_S, EVERY_S],
    );
    const lotIds = lots.map((l) => l.id);
    const expected = LOTS * 2;
    const deadline = Date.now() + (FIRST_END_S + EVERY_S * LOTS + 60) * 1000;
    type Mail = { message_id: string; topic: string; event_ms: string; queued_ms: string };
    let mails: Mail[] = [];
    let caught = new Map<string, number>();
    for (;;) {
      ({ rows: mails } = await db.query<Mail>(
        `SELECT o.message_id, o.topic,
                extract(epoch FROM o.created_at) * 1000 AS queued_ms,
                extract(epoch FROM CASE o.topic WHEN 'won' THEN l.ends_at
                                                ELSE n.created_at END) * 1000 AS event_ms
           FROM mail_outbox o
           LEFT JOIN purchases p
                  ON p.id = substring(o.dedupe_key FROM '^purchase-won:([0-9]{1,18})$')::bigint
           LEFT JOIN lots l ON l.id = p.lot_id
           LEFT JOIN notifications n
                  ON n.id = substring(o.dedupe_key FROM '^outbid:([0-9]{1,18})$')::bigint
          WHERE (o.topic = 'won' AND p.lot_id = ANY($1::bigint[]))
             OR (o.topic = 'outbid'
                 AND substring(n.link FROM '^/auctions/([0-9]{1,18})$')::bigint = ANY($1::bigint[]))`,
        [lotIds],
      ));
      const response = await fetch(`${options.mailCatcherUrl}/messages.json`);
      const messages = (await response.json()) as Caught[];
      caught = new Map(
        messages
          .filter((m): m is Caught & { messageId: string } => m.messageId !== null)
          .map((m) => [m.messageId, Date.parse(m.receivedAt)]),
      );
      const arrived = mails.filter((m) => caught.has(m.message_id)).length;
      if (arrived >= expected || Date.now() > deadline) break;
      await sleep(500);
    }
    const latency = (topic: string, from: "event_ms" | "queued_ms") =>
      stats(
        mails
          .filter((m) => m.topic === topic && caught.has(m.message_id))
          .map((m) => caught.get(m.message_id)! - Number(m[from])),
      );
    const missing = (topic: string) =>
      LOTS - mails.filter((m) => m.topic === topic && caught.has(m.message_id)).length;
    const won = latency("won", "event_ms");
    const outbid = latency("outbid", "event_ms");
    const { rows: closes } = await db.query<{ ms: string }>(
      `SELECT extract(epoch FROM closed_at - ends_at) * 1000 AS ms FROM lots
        WHERE id = ANY($1::bigint[]) AND closed_at IS NOT NULL`,
      [lotIds],
    );
    const close = stats(closes.map((c) => Number(c.ms)));
    row(
      `“You won” e-mail on an idle server: the lot's end → the mail catcher (${LOTS} lots ending ${EVERY_S} s apart, a job worker beside the server)`,
      `${describe(won)}${missing("won") ? `; ${missing("won")} never arrived` : ""}; from its queueing: ${describe(latency("won", "queued_ms"))}`,
      `p95 ≤ ${TARGET_P95_S} s (before the queue: 14 s)`,
      won !== null && won.p95 <= TARGET_P95_S * 1000 && missing("won") === 0,
    );
    row(
      `outbid e-mail on an idle server: the bid that outbid → the mail catcher (${LOTS} lots)`,
      `${describe(outbid)}${missing("outbid") ? `; ${missing("outbid")} never arrived` : ""}; ` +
        `from its queueing (its outbid_mail job, record 3568): ${describe(latency("outbid", "queued_ms"))}`,
      `p95 ≤ ${TARGET_P95_S} s`,
      outbid !== null && outbid.p95 <= TARGET_P95_S * 1000 && missing("outbid") === 0,
    );
    row(
      `lot close on an idle server: the lot's end → its closed_at (${LOTS} lots)`,
      `${describe(close, true)}${closes.length < LOTS ? `; ${LOTS - closes.length} not closed` : ""}`,
      `p99 ≤ ${CLOSE_P99_S} s`,
      close !== null && close.p99 <= CLOSE_P99_S * 1000 && closes.length === LOTS,
    );
    const twice = ledger.twice();
    row(
      "jobs on an idle server: none ran to the end twice, none failed",
      `${ledger.ok.size} jobs finished (${[...ledger.runsByKind()].map(([k, n]) => `${k} ${n}`).join(", ")}); ` +
        `${twice.length} twice, ${ledger.failed.size} failed a try, ${ledger.errorLines.length} error lines`,
      "none twice, none failed",
      twice.length === 0 && ledger.failed.size === 0 && ledger.errorLines.length === 0,
    );
  } finally {
    await stop();
  }
}
