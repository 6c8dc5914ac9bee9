import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { housekeepingRunsTotal } from "~/platform/metrics.server";
import { retryDepositRefunds } from "~/services/deposits/deposits.server";
import { retryCaptureRefunds } from "~/services/deposits/capture-refunds.server";
import { noticeOverduePurchases, remindDuePurchases } from "~/services/purchases/reminders.server";
import { discardStaleUploads } from "./uploads.server";
import { pruneLotEvents } from "./live/prune.server";
import { sendDueMail } from "./mail/outbox.server";
import { alertWatchedLotsEndingSoon, matchSavedSearches } from "~/services/alerts/matching.server";
import { fetchLotPictures } from "~/services/auctions/lot-images.server";
import { mailOutbidNotices, pruneOutbidMarks } from "~/services/auctions/outbid-mail.server";
import { keepDemoAuctionsRunning } from "~/services/auctions/demo.server";
import { env } from "./env.server";
import { sendMessageNotices } from "~/services/messages/messages.server";

const HOUSEKEEPING_LOCK = 727_001;
const HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * Once a minute across every machine: on one instance at a time (a PostgreSQL advisory lock held
 * while it runs), and only when no instance ran it in the last interval (job_runs,
 * docs/decisions/3010): send refunds again that the provider did not answer clearly, drop
 * uploads never used, drop live lot events older than an hour, and remind buyers whose invoice is
 * due tomorrow.
 */
export async function runHousekeeping() {
  const ran = await sequelize.transaction(async (transaction) => {
    const [{ locked }] = await sequelize.query<{ locked: boolean }>(
      "select pg_try_advisory_xact_lock(:key) as locked",
      { replacements: { key: HOUSEKEEPING_LOCK }, type: QueryTypes.SELECT, transaction },
    );
    if (!locked) return false;
    // a few seconds' slack: two machines' timers drift, and a turn a little early is no harm
    const due = await sequelize.query(
      `INSERT INTO job_runs (name, last_run_at) VALUES ('housekeeping', now())
       ON CONFLICT (name) DO UPDATE SET last_run_at = now()
        WHERE job_runs.last_run_at <= now() - :every * interval '1 millisecond'
       RETURNING name`,
      {
        replacements: { every: HOUSEKEEPING_INTERVAL_MS - 5_000 },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (due.length === 0) return false;
    // each refund by its kind (docs/decisions/3502): a refused deposit refund goes back to the
    // balance; a refused refund of any other capture waits for a person
    await retryDepositRefunds();
    await retryCaptureRefunds();
    await discardStaleUploads();
    await pruneLotEvents();
    await remindDuePurchases();
    await noticeOverduePurchases();
    await pruneOutbidMarks();
    // development and staging: a demo lot ending every few minutes (docs/decisions/2755)
    if (env().demoAuctions) await keepDemoAuctionsRunning();
    return true;
  });
  housekeepingRunsTotal.inc({ result: ran ? "ran" : "skipped" });
  return ran;
}

declare global {
  var __bidyardHousekeeping: NodeJS.Timeout | undefined;
}

/** How often the worker tick sends due mail and matches alerts (docs/decisions/2151). */
const WORKER_TICK_MS = 15_000;

/**
 * The worker tick: alert new matches of saved searches and watched lots ending soon, then send
 * the mail that is due. Safe on every instance at once (searches and mail rows are claimed with
 * FOR UPDATE SKIP LOCKED; each alert is a primary key), so it takes no advisory lock.
 */
export async function runWorkerTick() {
  const matches = await matchSavedSearches();
  const endingSoon = await alertWatchedLotsEndingSoon();
  const outbid = await mailOutbidNotices();
  const messageNotices = await sendMessageNotices();
  const mail = await sendDueMail();
  return { matches, endingSoon, outbid, messageNotices, mail };
}

/**
 * The worker tick's picture share: one small batch of lot pictures from the feed (downloaded,
 * checked, stored with a thumbnail; docs/decisions/2105). Claimed with FOR UPDATE SKIP LOCKED,
 * so safe on every instance; kept out of runHousekeeping, whose transaction holds a lock for the
 * whole run, and guarded apart from the mail so a slow download never holds mail up.
 */
export async function runPictureTick() {
  return fetchLotPictures({ limit: 6, concurrency: 2 });
}

declare global {
  var __bidyardWorker: NodeJS.Timeout | undefined;
}

function startWorker(intervalMs = WORKER_TICK_MS) {
  if (globalThis.__bidyardWorker) return;
  let running = false;
  let fetchingPictures = false;
  globalThis.__bidyardWorker = setInterval(() => {
    if (!fetchingPictures) {
      fetchingPictures = true;
      runPictureTick()
        .catch((error) => console.error("picture tick:", error))
        .finally(() => {
          fetchingPictures = false;
        });
    }
    if (running) return;
    running = true;
    runWorkerTick()
      .catch((error) => console.error("worker tick:", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  globalThis.__bidyardWorker.unref();
}

export function startHousekeeping(intervalMs = HOUSEKEEPING_INTERVAL_MS) {
  if (process.env.VITEST || process.env.HOUSEKEEPING === "off") return;
  startWorker();
  if (globalThis.__bidyardHousekeeping) return;
  let running = false;
  globalThis.__bidyardHousekeeping = setInterval(() => {
    if (running) return;
    running = true;
    runHousekeeping()
      .catch((error) => console.error("housekeeping:", error))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  globalThis.__bidyardHousekeeping.unref();
}
