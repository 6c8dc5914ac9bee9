// Machines outside the primary region (docs/decisions/3701): what the production server asks
// before a request reaches Remix (server/regions.ts). A read of a page that opted in is served
// here from the replica, once the replica has the reader's own last write; everything else is
// answered `fly-replay: region=<primary>` and Fly's proxy runs it in the primary region. After a
// write, the primary region hands the reader its log position in a short-lived cookie.
import { primaryWalPosition } from "~/models/db.server";
import { onPrimary, readingReplica, replicaWatch } from "~/models/replica.server";
import { parseWalPosition } from "~/utils/wal-position";
import { env } from "./env.server";

export { onPrimary };

/** The reader's own last write, as a log position of the primary. */
export const WAL_COOKIE = "bidyard_wal";
/** Long enough for any replica that is read (at most REPLICA_MAX_LAG_MS behind) to catch up. */
const WAL_COOKIE_SECONDS = 60;

function watch() {
  const { replicaUrl, REPLICA_MAX_LAG_MS } = env();
  return replicaUrl ? replicaWatch(replicaUrl, REPLICA_MAX_LAG_MS) : null;
}

function cookieValue(header: string | undefined | null, name: string) {
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(header ?? "");
  return match ? decodeURIComponent(match[1]) : null;
}

/** Where this machine is, and where writes go. */
export function regionSettings() {
  const { region, primaryRegion, replicaRegion } = env();
  return { region, primaryRegion, replicaRegion };
}

/**
 * Outside the primary region: may a read of an opted-in page be served here? Only from a replica
 * that is up and not lagging, and once it has replayed the reader's last write (the cookie), for
 * at most REPLICA_WAIT_MS; else it is replayed to the primary region.
 */
export async function servesHere(cookieHeader: string | undefined | null): Promise<boolean> {
  const replica = watch();
  if (!replica?.usable()) return false;
  const position = parseWalPosition(cookieValue(cookieHeader, WAL_COOKIE));
  if (position === null) return true;
  return replica.reached(position, env().REPLICA_WAIT_MS);
}

/** Runs a read served here on the replica; `replay` when the replica failed it. */
export async function onReplica<T>(work: () => Promise<T>): Promise<{ value: T; replay: boolean }> {
  const request = { replicaFailed: false };
  const value = await readingReplica(work, request);
  return { value, replay: request.replicaFailed };
}

/** In the primary region, after a write: the cookie a read elsewhere waits for. */
export async function walCookie() {
  const position = await primaryWalPosition();
  // sent over HTTPS only in production, as the session cookie is
  const secure = env().isProduction;
  return `${WAL_COOKIE}=${encodeURIComponent(position)}; Max-Age=${WAL_COOKIE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The replica as /healthz reports it (null in the primary region). */
export function replicaReport(): string | null {
  const { replicaRegion, region, primaryRegion } = env();
  if (!replicaRegion) return null;
  const replica = watch();
  const where = `region ${region} (primary ${primaryRegion})`;
  if (!replica) return `${where}: no replica set; pages come from ${primaryRegion}`;
  const { status, lagMs } = replica.state;
  if (status === "ok") return `${where}: replica ok, ${lagMs} ms behind`;
  const why =
    status === "down"
      ? "replica down"
      : `replica lagging (${lagMs === null ? "not streaming" : `${(lagMs / 1000).toFixed(1)} s behind`})`;
  return `${where}: ${why}; pages come from ${primaryRegion}`;
}

/** Asks the replica where it stands now (the health check reports a fresh answer). */
export async function askReplica() {
  await watch()?.ask();
}
