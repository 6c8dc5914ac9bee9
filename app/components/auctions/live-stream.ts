import { useEffect, useRef, useState } from "react";
import { LIVE_LOT_EVENT, LIVE_SNAPSHOT_EVENT, type LiveLot } from "~/services/auctions/live";

/** After the server refused a stream (capped, down, signed out), try again this much later. */
export const LIVE_RETRY_AFTER_REFUSAL_MS = 30_000;

export type LiveHandler = (lot: LiveLot, kind: "lot" | "snapshot") => void;

/**
 * Follows a live stream (docs/decisions/1801). `open` is true while events flow; the page polls
 * only while it is false. The browser's EventSource reconnects on its own with Last-Event-ID;
 * when the server refuses (a status, so EventSource gives up), this tries again later.
 */
export function useLiveStream(url: string | null, onEvent: LiveHandler) {
  const [open, setOpen] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!url || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const receive = (kind: "lot" | "snapshot") => (message: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(message.data) as LiveLot, kind);
      } catch {
        // a malformed event is skipped; the next one carries the whole state again
      }
    };
    const connect = () => {
      if (stopped) return;
      source = new EventSource(url);
      source.addEventListener("open", () => setOpen(true));
      source.addEventListener(LIVE_LOT_EVENT, receive("lot") as EventListener);
      source.addEventListener(LIVE_SNAPSHOT_EVENT, receive("snapshot") as EventListener);
      source.addEventListener("error", () => {
        setOpen(false);
        if (source?.readyState === EventSource.CLOSED) {
          source = null;
          retry = setTimeout(connect, LIVE_RETRY_AFTER_REFUSAL_MS);
        }
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
      setOpen(false);
    };
  }, [url]);

  return open;
}

/** Whether `live` is at least as new as what the loader last read (bid counts only grow). */
export function isNewer(
  live: { bidCount: number; status: string },
  loaded: { bidCount: number; status: string },
) {
  if (live.bidCount !== loaded.bidCount) return live.bidCount > loaded.bidCount;
  return !(loaded.status !== "active" && live.status === "active");
}
