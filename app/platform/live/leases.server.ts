// The per-person cap on open live streams, held in PostgreSQL so it counts every process on every
// machine (docs/decisions/3008). Each open stream holds a lease row; this process renews its
// leases while their streams are open, and gives each back when its stream ends. A process that
// dies stops renewing: its leases run out after LEASE_TTL_MS and stop counting. Every statement
// here goes to the primary (useMaster), a replica being read-only.
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { log } from "~/platform/log.server";

export const leaseSettings = {
  /** How long a lease counts without being renewed. */
  ttlMs: 60_000,
  /** How often this process renews the leases of its open streams. */
  renewMs: 20_000,
};

/** This process, as the leases name it (for an operator reading the table). */
const HOLDER = `${process.env.FLY_MACHINE_ID ?? hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;

const held = new Set<string>();
/** Leases given back whose DELETE may not have landed yet: the next take drops them first. */
const releasing = new Set<string>();
let renewer: NodeJS.Timeout | undefined;

/** Renews this process's leases (every renewMs while it holds any; tests call it directly). */
export async function renewStreamLeases() {
  if (held.size === 0) return;
  await sequelize.query(
    `UPDATE live_stream_leases SET expires_at = now() + $2 * interval '1 millisecond'
      WHERE id = ANY($1::bigint[])`,
    { bind: [[...held], leaseSettings.ttlMs], useMaster: true },
  );
}

function startRenewing() {
  if (renewer) return;
  renewer = setInterval(() => {
    // the database away: the leases may run out and let a person open a few more for a while
    renewStreamLeases().catch((error) =>
      log().error({ err: error }, "live streams: could not renew leases"),
    );
  }, leaseSettings.renewMs);
  renewer.unref();
}

/** A lease for one more stream of `userId`, or null when they hold `max` already. */
export async function takeStreamLease(userId: string, max: number): Promise<string | null> {
  const [row] = await sequelize.query<{ lease: string | null }>(
    `SELECT take_stream_lease($1, $2, $3, $4 * interval '1 millisecond', $5::bigint[])::text
       AS lease`,
    {
      bind: [userId, HOLDER, max, leaseSettings.ttlMs, [...releasing]],
      type: QueryTypes.SELECT,
      // a write, though typed SELECT for its result: the primary, never a replica
      useMaster: true,
    },
  );
  if (!row?.lease) return null;
  held.add(row.lease);
  startRenewing();
  return row.lease;
}

/** Gives a stream's lease back (at once; if the database is away, it runs out instead). */
export function releaseStreamLease(lease: string) {
  held.delete(lease);
  releasing.add(lease);
  sequelize
    .query("DELETE FROM live_stream_leases WHERE id = $1", { bind: [lease], useMaster: true })
    .then(() => releasing.delete(lease))
    .catch(() => {
      // left to run out; forget it after its TTL so the set cannot grow
      setTimeout(() => releasing.delete(lease), leaseSettings.ttlMs).unref();
    });
}
