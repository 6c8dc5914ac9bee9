// What the live streams send (docs/decisions/1801-live-updates-by-server-sent-events.md): shared
// by the server that writes the events and the browser hooks that read them.
import type { BuyingPower } from "~/services/auctions/buying-power.server";
import type { AuctionVehicle, HistoryEntry } from "~/services/auctions/types";

/** An event that changed the lot (a bid, an extension, the close). */
export const LIVE_LOT_EVENT = "lot";
/** The lot's current state, sent first on a fresh stream (no Last-Event-ID to resume from). */
export const LIVE_SNAPSHOT_EVENT = "snapshot";

/** The most lots one list stream may follow (a page of cards, twice over for "Load more"). */
export const LIVE_LIST_MAX_LOTS = 96;

export type LiveLot = {
  /** The lot_events id (also the SSE id). */
  eventId: string;
  lotId: string;
  currentBid: string;
  bidCount: number;
  endsAt: string;
  status: "active" | "sold" | "unsold";
  /** The leader as everyone sees them ("Bidder 4821"), or null before the first bid. */
  leader: string | null;
  /** For this viewer: they lead, or this event took the lead from them. */
  you: "leading" | "outbid" | null;
  /** The server's clock when the event was sent (the countdown corrects itself by it). */
  serverTime: string;
};

export function lotStreamUrl(lotId: string) {
  return `/live/lots/${lotId}`;
}

export function listStreamUrl(lotIds: string[]) {
  return `/live/auctions?lots=${lotIds.slice(0, LIVE_LIST_MAX_LOTS).join(",")}`;
}

/**
 * The lot page's moving parts as one read (docs/decisions/2752): the lot's price, count, end,
 * status and the viewer's lead, its bid history and the viewer's buying power, from one snapshot,
 * stamped with the lot's newest event id. The page takes every part from the newest such read.
 */
export type LotLiveState = {
  /** The newest lot_events id of the lot when this was read ("0" when none is kept). */
  eventId: string;
  lot: Pick<
    AuctionVehicle,
    "currentBid" | "bidCount" | "startsAt" | "endsAt" | "status" | "badge" | "leading" | "myMax"
  >;
  history: HistoryEntry[];
  bidder: BuyingPower;
  serverTime: string;
};

/** Where the lot page refetches its state after a live event. */
export function lotStateUrl(lotId: string) {
  return `/live/lots/${lotId}/state`;
}

/** Whether event id `a` is newer than `b` (decimal strings of a bigserial). */
export function isNewerEvent(a: string, b: string) {
  return a.length !== b.length ? a.length > b.length : a > b;
}
