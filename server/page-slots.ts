// Part of the production server (server/index.ts), in its own file so a test can drive it.
//
// Page requests are admitted a few at a time per process; the rest wait their turn here, before
// Remix starts on them (docs/decisions/2907). A page's render holds the event loop for several
// milliseconds at a time, and twenty of them in flight put every bid's next step behind all of
// them: a crowd refreshing the lists in an auction's last minute took bids from about 900 a second
// to a handful. Bids, other writes, live streams and the health check never wait for a slot, and
// the pages still use every core they can: a page waiting for its queries leaves its slot to the
// render of another only when the limit allows, so the limit is a few, not one.
import type { EventEmitter } from "node:events";
import type { Request } from "express";

export const PAGE_SLOTS = 3;

/** True for the requests that take a slot: reads of pages and data, not streams or writes. */
export function takesPageSlot(req: Pick<Request, "method" | "path">) {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  return !req.path.startsWith("/live/") && req.path !== "/healthz";
}

/** A first-come, first-served gate letting `limit` requests through at once. */
export function pageSlots(limit = PAGE_SLOTS) {
  let active = 0;
  const waiting: (() => void)[] = [];
  function release() {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  }
  return {
    /** Waits for a slot; resolves with the function that gives it back (call it once). */
    enter(): Promise<() => void> {
      let given = false;
      const giveBack = () => {
        if (given) return;
        given = true;
        release();
      };
      if (active < limit) {
        active += 1;
        return Promise.resolve(giveBack);
      }
      return new Promise((resolve) => waiting.push(() => resolve(giveBack)));
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/**
 * Express middleware: a page request waits for a slot and gives it back when its answer is done
 * (sent, or the connection closed). One whose client left while it waited is not started.
 */
export function admitPages(limit = Number(process.env.PAGE_CONCURRENCY) || PAGE_SLOTS) {
  const slots = pageSlots(limit);
  return async (
    req: Pick<Request, "method" | "path"> & { socket: { destroyed: boolean } },
    res: Pick<EventEmitter, "once">,
    next: () => void,
  ) => {
    if (!takesPageSlot(req)) return next();
    const giveBack = await slots.enter();
    if (req.socket.destroyed) {
      giveBack();
      return;
    }
    res.once("close", giveBack);
    next();
  };
}
