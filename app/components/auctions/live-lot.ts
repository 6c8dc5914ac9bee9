import { useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useToast } from "~/components/toaster";
import {
  isNewerEvent,
  listStreamUrl,
  lotStateUrl,
  lotStreamUrl,
  type LiveLot,
  type LotLiveState,
} from "~/services/auctions/live";
import { lotBadge } from "~/services/auctions/rules";
import type { AuctionVehicle } from "~/services/auctions/types";
import { formatUsd } from "~/utils/money";
import { isNewer, useLiveStream } from "./live-stream";

type LiveFields = Pick<
  AuctionVehicle,
  "id" | "currentBid" | "bidCount" | "endsAt" | "startsAt" | "status" | "badge" | "leading"
> & { year?: number; make?: string; model?: string };

export const OUTBID_TOAST_TITLE = "You've been outbid";

function outbidToast(lot: LiveFields, live: LiveLot) {
  const name = lot.make ? `${lot.year} ${lot.make} ${lot.model}: ` : "";
  return {
    title: OUTBID_TOAST_TITLE,
    description: `${name}the current bid is now ${formatUsd(live.currentBid)}.`,
    type: "info" as const,
  };
}

/** The lot with the stream's newer state laid over what the loader read. */
function merge<T extends LiveFields>(lot: T, live: LiveLot | undefined): T {
  if (!live || !isNewer(live, lot)) return lot;
  const merged = {
    ...lot,
    currentBid: live.currentBid,
    bidCount: live.bidCount,
    endsAt: live.endsAt,
    status: live.status,
    leading: live.you === "leading",
  };
  return { ...merged, badge: lotBadge(merged, new Date(live.serverTime)) };
}

/** The newer of two reads of the lot page's state: the lot's newer event, else the later read. */
function newerState(a: LotLiveState, b: LotLiveState | undefined) {
  if (!b || b.eventId === a.eventId) return b && b.serverTime > a.serverTime ? b : a;
  return isNewerEvent(b.eventId, a.eventId) ? b : a;
}

/**
 * The lot page's live state (docs/decisions/1801, 2752). Every moving part (price, count, end,
 * the viewer's lead, the history, "Available for bidding") comes from one read: the loader's, or
 * the newer one the page fetches when its stream reports an event it has not seen. An event
 * never patches one part alone, so nothing shown is from before it while the rest is from after.
 * Also the server time of that read (the countdown's clock), the outbid toast, and `streaming`
 * (the page polls only while it is false). If the refetch fails, the whole page revalidates.
 */
export function useLiveLotState<T extends LiveFields>(lot: T, loaded: LotLiveState) {
  const toast = useToast();
  const revalidator = useRevalidator();
  // kept with its lot: a client-side move to another lot never shows the last one's state
  const [fetched, setFetched] = useState<{ lotId: string; state: LotLiveState }>();
  const state = newerState(loaded, fetched?.lotId === lot.id ? fetched.state : undefined);
  const current = useRef(state);
  current.current = state;
  const fetching = useRef<{ again: boolean } | null>(null);

  const refetch = useCallback(async () => {
    if (fetching.current) {
      fetching.current.again = true;
      return;
    }
    const run = { again: true };
    fetching.current = run;
    try {
      while (run.again) {
        run.again = false;
        const response = await fetch(lotStateUrl(lot.id), {
          headers: { Accept: "application/json" },
        });
        if (!response.ok) throw new Error(`state ${response.status}`);
        const next = (await response.json()) as LotLiveState;
        setFetched((known) =>
          known?.lotId === lot.id
            ? { lotId: lot.id, state: newerState(known.state, next) }
            : { lotId: lot.id, state: next },
        );
      }
    } catch {
      // the loader reads the same snapshot: the page as a whole is read again
      revalidator.revalidate();
    } finally {
      fetching.current = null;
    }
  }, [lot.id, revalidator]);

  const onEvent = useCallback(
    (event: LiveLot, kind: "lot" | "snapshot") => {
      if (event.lotId !== lot.id) return;
      if (isNewerEvent(event.eventId, current.current.eventId)) void refetch();
      if (kind === "lot" && event.you === "outbid") toast(outbidToast(lot, event));
    },
    [lot, refetch, toast],
  );
  const streaming = useLiveStream(lotStreamUrl(lot.id), onEvent);
  return {
    lot: { ...lot, ...state.lot },
    history: state.history,
    bidder: state.bidder,
    serverTime: state.serverTime,
    streaming,
  };
}

/** How long the list gathers events before it shows them: one render for a burst, not one each. */
export const LIVE_LIST_BATCH_MS = 50;

/**
 * The auction list's live state: each card's lot updated in place, and the outbid toast. Events
 * that arrive together (the stream opens with one per card) are applied in one render, and a
 * card's lot stays the same object until its own event changes it, so unchanged cards skip
 * their render (docs/decisions/3414).
 */
export function useLiveList<T extends LiveFields>(lots: T[], serverTime: string) {
  const toast = useToast();
  const [live, setLive] = useState<Record<string, LiveLot>>({});
  const ids = lots.map((lot) => lot.id).join(",");
  const byId = useMemo(() => new Map(lots.map((lot) => [lot.id, lot])), [lots]);
  const pending = useRef<LiveLot[]>([]);
  const flush = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (flush.current !== null) clearTimeout(flush.current);
    },
    [],
  );
  const onEvent = useCallback(
    (event: LiveLot, kind: "lot" | "snapshot") => {
      pending.current.push(event);
      flush.current ??= setTimeout(() => {
        flush.current = null;
        const events = pending.current;
        pending.current = [];
        setLive((current) => {
          let next = current;
          for (const event of events) {
            const known = next[event.lotId];
            if (known && known.bidCount > event.bidCount) continue;
            if (next === current) next = { ...current };
            next[event.lotId] = event;
          }
          return next;
        });
      }, LIVE_LIST_BATCH_MS);
      const lot = byId.get(event.lotId);
      if (kind === "lot" && event.you === "outbid" && lot) toast(outbidToast(lot, event));
    },
    [byId, toast],
  );
  // each lot merged with its event once, so a card's props stay the same between its events
  const merged = useRef(new WeakMap<T, { event: LiveLot | undefined; lot: T }>());
  const apply = (lot: T) => {
    const event = live[lot.id];
    const kept = merged.current.get(lot);
    if (kept && kept.event === event) return kept.lot;
    const next = merge(lot, event);
    merged.current.set(lot, { event, lot: next });
    return next;
  };
  const streaming = useLiveStream(ids ? listStreamUrl(ids.split(",")) : null, onEvent);
  const newest = Object.values(live).reduce<string | null>(
    (at, event) => (at === null || event.serverTime > at ? event.serverTime : at),
    null,
  );
  return {
    apply,
    serverTime: newest ?? serverTime,
    streaming,
  };
}
