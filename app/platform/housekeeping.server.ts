import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { retryPendingRefunds } from "~/modules/deposits/deposits.server";
import { remindDuePurchases } from "~/modules/purchases/reminders.server";
import { discardStaleUploads } from "./uploads.server";
import { pruneLotEvents } from "./live/prune.server";

const HOUSEKEEPING_LOCK = 727_001;
const HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * Once a minute, on one instance at a time (a PostgreSQL advisory lock held while it runs):
 * send refunds again that the provider did not answer clearly, drop uploads never used, and
 * drop live lot events older than an hour.
 */
export async function runHousekeeping() {
  return sequelize.transaction(async (transaction) => {
    const [{ locked }] = await sequelize.query<{ locked: boolean }>(
      "select pg_try_advisory_xact_lock(:key) as locked",
      { replacements: { key: HOUSEKEEPING_LOCK }, type: QueryTypes.SELECT, transaction },
    );
    if (!locked) return false;
    await retryPendingRefunds();
    await discardStaleUploads();
    await pruneLotEvents();
    await remindDuePurchases();
    return true;
  });
}

declare global {
  var __bidyardHousekeeping: NodeJS.Timeout | undefined;
}

export function startHousekeeping(intervalMs = HOUSEKEEPING_INTERVAL_MS) {
  if (process.env.VITEST || process.env.HOUSEKEEPING === "off") return;
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
