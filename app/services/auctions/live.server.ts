// The live streams of the auction screens (docs/decisions/1801): the lot page's and the list's,
// each event shown to its viewer (the leader masked, "you lead" or "outbid" for them alone).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { LOT_EVENT_COLUMNS, type LotEvent } from "~/platform/live/hub.server";
import {
  openEventStream,
  type OutgoingEvent,
  type StreamSpec,
} from "~/platform/live/stream.server";
import {
  LIVE_LIST_MAX_LOTS,
  LIVE_LOT_EVENT,
  LIVE_SNAPSHOT_EVENT,
  type LiveLot,
} from "~/services/auctions/live";
import { maskBidder } from "~/services/auctions/lots.server";

/** The most events one reconnect replays; a client further behind gets the current state. */
const REPLAY_LIMIT = 500;

type Variants = {
  base: Omit<LiveLot, "you">;
  leader: string | null;
  previous: string | null;
  /**
   * The event to send per name and "you" value: at most three per name, whatever the audience,
   * each serialized and framed once (docs/decisions/1803).
   */
  sent: Map<string, OutgoingEvent>;
};

// Masking costs an HMAC: once per event, shared by every stream that shows it.
const variantCache = new WeakMap<LotEvent, Variants>();

function variants(event: LotEvent): Variants {
  let cached = variantCache.get(event);
  if (!cached) {
    cached = {
      base: {
        eventId: event.id,
        lotId: event.lot,
        currentBid: event.price,
        bidCount: Number(event.count),
        endsAt: new Date(event.endsAt).toISOString(),
        status: event.status as LiveLot["status"],
        leader: event.leader ? maskBidder(event.leader, event.lot) : null,
        serverTime: now().toISOString(),
      },
      leader: event.leader,
      previous: event.previous,
      sent: new Map(),
    };
    variantCache.set(event, cached);
  }
  return cached;
}

function youFor(event: LotEvent, viewerId: string): LiveLot["you"] {
  if (event.leader === viewerId) return "leading";
  return event.previous === viewerId ? "outbid" : null;
}

/** The event as `viewerId` sees it. */
export function liveLotFor(event: LotEvent, viewerId: string): LiveLot {
  return { ...variants(event).base, you: youFor(event, viewerId) };
}

function outgoing(event: LotEvent, viewerId: string, name = LIVE_LOT_EVENT): OutgoingEvent {
  const { base, sent } = variants(event);
  const you = youFor(event, viewerId);
  const key = `${name}:${you}`;
  let found = sent.get(key);
  if (found === undefined) {
    found = { id: event.id, lot: event.lot, name, data: JSON.stringify({ ...base, you }) };
    sent.set(key, found);
  }
  return found;
}

function normalize(row: LotEvent): LotEvent {
  return { ...row, endsAt: new Date(row.endsAt).toISOString() };
}

/** What a stream sends first, and each lot's newest event id as the same read saw it. */
type FirstEvents = { events: OutgoingEvent[]; newest: Map<string, bigint> };

/**
 * A lot's current state, read from the lot itself (a lot with no event in the kept history has a
 * state too). Its id is the lot's newest event (0 when none is kept), read in the same statement,
 * so the state and the id agree and a later event is newer than it.
 */
const SNAPSHOT_COLUMNS = `coalesce((SELECT max(lot_events.id) FROM lot_events
                                     WHERE lot_events.lot_id = lots.id), 0)::text AS id,
  lots.id::text AS lot, lots.current_bid::text AS price, lots.bid_count AS count,
  lots.ends_at AS "endsAt", lots.status, lots.high_bidder_id AS leader,
  lots.high_bidder_id AS previous`;

function snapshotEvents(rows: LotEvent[], viewerId: string): FirstEvents {
  return {
    // a snapshot is state, not news: it never says "outbid" (previous is the leader)
    events: rows.map((row) => outgoing(normalize(row), viewerId, LIVE_SNAPSHOT_EVENT)),
    newest: new Map(rows.map((row) => [row.lot, BigInt(row.id)])),
  };
}

/**
 * Each lot's current state. It reads the primary (useMaster), as every first read of a stream
 * does: the hub listens there, and a replica behind it would miss events the hub will not send.
 */
async function snapshots(lots: string[], viewerId: string): Promise<FirstEvents> {
  if (lots.length === 0) return { events: [], newest: new Map() };
  const rows = await sequelize.query<LotEvent>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM lots WHERE lots.id = ANY(ARRAY[:lots]::bigint[])
      ORDER BY lots.id`,
    { replacements: { lots }, type: QueryTypes.SELECT, useMaster: true },
  );
  return snapshotEvents(rows, viewerId);
}

/**
 * What a lot stream sends first: after Last-Event-ID, every event of the lot since (one lot's
 * events are in id order, so nothing between is missed); if the client is too far behind, or new,
 * the lot's current state. One statement either way (one round trip to a far primary): the
 * replay, the lot's state and the oldest kept event are read together, and the state is sent
 * instead of the replay when events after the client's id were pruned or are too many.
 */
async function lotReplay(
  lotId: string,
  viewerId: string,
  lastEventId: bigint | null,
): Promise<FirstEvents> {
  if (lastEventId === null) return snapshots([lotId], viewerId);
  const rows = await sequelize.query<LotEvent & { part: string; oldest: string | null }>(
    `WITH replay AS (
       SELECT ${LOT_EVENT_COLUMNS} FROM lot_events
        WHERE lot_id = :lotId AND id > :since ORDER BY lot_events.id LIMIT :limit)
     SELECT 'replay' AS part, replay.*, NULL AS oldest FROM replay
     UNION ALL
     SELECT 'snapshot', ${SNAPSHOT_COLUMNS}, (SELECT min(id)::text FROM lot_events)
       FROM lots WHERE lots.id = :lotId`,
    {
      replacements: { lotId, since: String(lastEventId), limit: REPLAY_LIMIT + 1 },
      type: QueryTypes.SELECT,
      useMaster: true,
    },
  );
  const snapshot = rows.filter((row) => row.part === "snapshot");
  const replay = rows
    .filter((row) => row.part === "replay")
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const oldest = snapshot[0]?.oldest ?? null;
  // events after the client's id were pruned, or there are too many: send the state instead
  const pruned = oldest !== null && BigInt(oldest) > lastEventId + 1n;
  if (pruned || replay.length > REPLAY_LIMIT) return snapshotEvents(snapshot, viewerId);
  return {
    events: replay.map((row) => outgoing(normalize(row), viewerId)),
    newest: new Map(snapshot.map((row) => [row.lot, BigInt(row.id)])),
  };
}

async function existingLots(ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await sequelize.query<{ id: string }>(
    "SELECT id::text AS id FROM lots WHERE id = ANY(ARRAY[:ids]::bigint[])",
    { replacements: { ids }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.id);
}

/** The lot page's stream, or null when the lot does not exist. */
export async function openLotStream(request: Request, viewerId: string, lotId: string) {
  if (!/^\d{1,18}$/.test(lotId) || (await existingLots([lotId])).length === 0) return null;
  return openEventStream(lotStreamSpec(request, viewerId, lotId));
}

/** The lot page's stream of a lot that exists (the far-region test times its open). */
export function lotStreamSpec(request: Request, viewerId: string, lotId: string): StreamSpec {
  return {
    request,
    userId: viewerId,
    lots: [lotId],
    initial: (lastEventId) => lotReplay(lotId, viewerId, lastEventId),
    format: (event) => outgoing(event, viewerId),
  };
}

/** The lot ids a list stream asks for (`?lots=1,2,3`), or null when the list is not valid. */
export function parseListLots(value: string | null): string[] | null {
  if (!value) return null;
  const ids = [...new Set(value.split(","))];
  if (ids.length > LIVE_LIST_MAX_LOTS || ids.some((id) => !/^\d{1,18}$/.test(id))) return null;
  return ids;
}

/**
 * The auction list's stream: the cards' lots. It always starts from the lots' current state (the
 * cards only show state), so a reconnect needs no replay across lots whose events commit out of
 * id order. Null when none of the lots exist.
 */
export async function openListStream(request: Request, viewerId: string, lotIds: string[]) {
  const lots = await existingLots(lotIds);
  if (lots.length === 0) return null;
  return openEventStream({
    request,
    userId: viewerId,
    lots,
    initial: () => snapshots(lots, viewerId),
    format: (event) => outgoing(event, viewerId),
  });
}
