import { useCallback, useMemo, useState } from "react";
import { useToast } from "~/components/toaster";
import { lotStreamUrl, listStreamUrl, type LiveLot } from "~/services/auctions/live";
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

/**
 * The lot page's live state (docs/decisions/1801): the lot as the loader read it, updated in
 * place by its stream, the server time of the newest event (the countdown's clock), an outbid
 * toast, and `streaming` (the page polls only while it is false).
 */
export function useLiveLot<T extends LiveFields>(lot: T, serverTime: string) {
  const toast = useToast();
  const [live, setLive] = useState<LiveLot>();
  const onEvent = useCallback(
    (event: LiveLot, kind: "lot" | "snapshot") => {
      if (event.lotId !== lot.id) return;
      setLive((current) => (current && current.bidCount > event.bidCount ? current : event));
      if (kind === "lot" && event.you === "outbid") toast(outbidToast(lot, event));
    },
    [lot, toast],
  );
  const streaming = useLiveStream(lotStreamUrl(lot.id), onEvent);
  const fresh = live && isNewer(live, lot) ? live : undefined;
  return {
    lot: merge(lot, fresh),
    serverTime: fresh?.serverTime ?? serverTime,
    leader: fresh?.leader ?? null,
    streaming,
  };
}

/** The auction list's live state: each card's lot updated in place, and the outbid toast. */
export function useLiveList<T extends LiveFields>(lots: T[], serverTime: string) {
  const toast = useToast();
  const [live, setLive] = useState<Record<string, LiveLot>>({});
  const ids = lots.map((lot) => lot.id).join(",");
  const byId = useMemo(() => new Map(lots.map((lot) => [lot.id, lot])), [lots]);
  const onEvent = useCallback(
    (event: LiveLot, kind: "lot" | "snapshot") => {
      setLive((current) => {
        const known = current[event.lotId];
        if (known && known.bidCount > event.bidCount) return current;
        return { ...current, [event.lotId]: event };
      });
      const lot = byId.get(event.lotId);
      if (kind === "lot" && event.you === "outbid" && lot) toast(outbidToast(lot, event));
    },
    [byId, toast],
  );
  const streaming = useLiveStream(ids ? listStreamUrl(ids.split(",")) : null, onEvent);
  const newest = Object.values(live).reduce<string | null>(
    (at, event) => (at === null || event.serverTime > at ? event.serverTime : at),
    null,
  );
  return {
    apply: (lot: T) => merge(lot, live[lot.id]),
    serverTime: newest ?? serverTime,
    streaming,
  };
}
