// How long the queue's work took (docs/decisions/3567): each e-mail from its event to the SMTP
// server's receipt, each lot's close from its end. The events are read from the database after
// the run; the receipts are the soak's SMTP server's own clock (the same machine's).
import type pg from "pg";

export type Stats = { n: number; p50: number; p95: number; p99: number; max: number };

/** Nearest-rank percentile of values sorted ascending. */
export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function stats(values: number[]): Stats | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** "p50 0.41 s, p95 1.20 s, max 3.10 s (n = 120)"; `p99` adds the 99th. */
export function describe(stat: Stats | null, p99 = false) {
  if (!stat) return "none";
  return (
    `p50 ${s(stat.p50)}, p95 ${s(stat.p95)}` +
    (p99 ? `, p99 ${s(stat.p99)}` : "") +
    `, max ${s(stat.max)} (n = ${stat.n})`
  );
}

/**
 * A kill -9 of the worker at `killedAt`, its replacement taking jobs at `restartedAt`, and the
 * dead worker's locked jobs freed at `unlockedAt` (the replacement's heartbeat, ~30 s after the
 * dead one's last). Work whose event falls from `marginMs` before the kill until the unlock is
 * "around the kill": it waited for the new worker or for the unlock.
 */
export type Kill = { killedAt: number; restartedAt: number; unlockedAt: number };
export type Phase = "before the kill" | "around the kill" | "after the kill";

export function phaseOf(at: number, kill: Kill, marginMs = 10_000): Phase {
  if (at < kill.killedAt - marginMs) return "before the kill";
  if (at < Math.max(kill.restartedAt, kill.unlockedAt)) return "around the kill";
  return "after the kill";
}

export type Timed = { at: number; ms: number };

/** The figures of `items` split by phase (all of them when there was no kill). */
export function byPhase(items: Timed[], kill: Kill | null) {
  const phases = new Map<Phase | "whole run", number[]>();
  if (!kill)
    phases.set(
      "whole run",
      items.map((i) => i.ms),
    );
  else
    for (const item of items) {
      const phase = phaseOf(item.at, kill);
      phases.set(phase, [...(phases.get(phase) ?? []), item.ms]);
    }
  return phases;
}

/** The e-mails relayed by a schedule (the notices every 15 s, reminders every minute). */
export const RELAYED_TOPICS = ["outbid", "messages", "alerts", "payment_due", "overdue"];

export type MailTiming = {
  messageId: string;
  topic: string;
  status: string;
  queuedAt: number;
  /** the lot's end for "You won", the outbidding bid for "outbid", the queueing otherwise */
  eventAt: number;
  receivedAt: number | null;
};

/** Every e-mail queued since `since`, with its event's time and its first receipt. */
export async function mailTimings(
  db: pg.Pool,
  since: Date,
  received: Map<string, number>,
): Promise<MailTiming[]> {
  const { rows } = await db.query<{
    message_id: string;
    topic: string;
    status: string;
    queued_ms: string;
    event_ms: string | null;
  }>(
    `SELECT o.message_id, o.topic, o.status,
            extract(epoch FROM o.created_at) * 1000 AS queued_ms,
            extract(epoch FROM CASE o.topic WHEN 'won' THEN l.ends_at
                                            WHEN 'outbid' THEN n.created_at
                                            ELSE o.created_at END) * 1000 AS event_ms
       FROM mail_outbox o
       LEFT JOIN purchases p
              ON o.topic = 'won'
             AND p.id = substring(o.dedupe_key FROM '^purchase-won:([0-9]{1,18})$')::bigint
       LEFT JOIN lots l ON l.id = p.lot_id
       LEFT JOIN notifications n
              ON o.topic = 'outbid'
             AND n.id = substring(o.dedupe_key FROM '^outbid:([0-9]{1,18})$')::bigint
      WHERE o.created_at >= $1`,
    [since],
  );
  return rows.map((r) => ({
    messageId: r.message_id,
    topic: r.topic,
    status: r.status,
    queuedAt: Number(r.queued_ms),
    eventAt: Number(r.event_ms ?? r.queued_ms),
    receivedAt: received.get(r.message_id) ?? null,
  }));
}

export type CloseTiming = { lotId: string; endedAt: number; closedAt: number };

/** Every lot closed since `since`: its end (after any soft close) and its close. */
export async function closeTimings(db: pg.Pool, since: Date): Promise<CloseTiming[]> {
  const { rows } = await db.query<{ id: string; end_ms: string; closed_ms: string }>(
    `SELECT id::text, extract(epoch FROM ends_at) * 1000 AS end_ms,
            extract(epoch FROM closed_at) * 1000 AS closed_ms
       FROM lots WHERE closed_at >= $1`,
    [since],
  );
  return rows.map((r) => ({
    lotId: r.id,
    endedAt: Number(r.end_ms),
    closedAt: Number(r.closed_ms),
  }));
}

/** What the queue still holds: jobs due and not taken, and jobs that failed a try, by kind. */
export async function queueLeft(db: pg.Pool, dueForMs = 10_000) {
  const { rows } = await db.query<{
    kind: string;
    due: string;
    failing: string;
    locked: string;
    errors: string[];
  }>(
    `SELECT t.identifier AS kind,
            count(*) FILTER (WHERE j.run_at < now() - $1 * interval '1 millisecond'
                               AND j.locked_at IS NULL AND j.attempts < j.max_attempts) AS due,
            count(*) FILTER (WHERE j.last_error IS NOT NULL) AS failing,
            count(*) FILTER (WHERE j.locked_at IS NOT NULL) AS locked,
            array_remove(array_agg(DISTINCT left(j.last_error, 160)), NULL) AS errors
       FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      GROUP BY 1 ORDER BY 1`,
    [dueForMs],
  );
  return rows.map((r) => ({
    kind: r.kind,
    due: Number(r.due),
    failing: Number(r.failing),
    locked: Number(r.locked),
    errors: r.errors,
  }));
}

/** The jobs a worker holds right now (what a kill -9 cuts off), by kind. */
export async function lockedJobs(db: pg.Pool) {
  const { rows } = await db.query<{ id: string; kind: string; locked_by: string }>(
    `SELECT j.id::text, t.identifier AS kind, j.locked_by
       FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.locked_at IS NOT NULL ORDER BY j.id`,
  );
  return rows;
}
