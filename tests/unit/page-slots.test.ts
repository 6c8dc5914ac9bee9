// The production server admits page requests a few at a time; bids, writes, live streams and the
// health check pass straight through (server/page-slots.ts, docs/decisions/2907).
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { admitPages, pageSlots, takesPageSlot } from "../../server/page-slots.ts";
import { nextTurn as flush } from "../support/wait";

describe("page slots", () => {
  it("let `limit` in at once and the rest in the order they came", async () => {
    const slots = pageSlots(2);
    const admitted: number[] = [];
    const gives: Array<() => void> = [];
    for (let i = 0; i < 5; i += 1) {
      void slots.enter().then((giveBack: () => void) => {
        admitted.push(i);
        gives.push(giveBack);
      });
    }
    await flush();
    expect(admitted).toEqual([0, 1]);
    expect(slots.waiting).toBe(3);
    gives[0]();
    gives[0](); // a second give-back of the same slot changes nothing
    await flush();
    expect(admitted).toEqual([0, 1, 2]);
    expect(slots.active).toBe(2);
    for (const giveBack of gives.slice(1)) giveBack();
    await flush();
    expect(admitted).toEqual([0, 1, 2, 3, 4]);
  });

  it("are taken by page and data reads only", () => {
    const req = (method: string, path: string) => ({ method, path });
    expect(takesPageSlot(req("GET", "/auctions"))).toBe(true);
    expect(takesPageSlot(req("GET", "/community-vehicles.data"))).toBe(true);
    expect(takesPageSlot(req("POST", "/api/bids"))).toBe(false);
    expect(takesPageSlot(req("POST", "/auctions/7"))).toBe(false);
    expect(takesPageSlot(req("GET", "/live/lots/7"))).toBe(false);
    expect(takesPageSlot(req("GET", "/healthz"))).toBe(false);
  });

  it("are given back when an answer is done, and never start a request whose client left", async () => {
    const admit = admitPages(1);
    const request = () => {
      const res = new EventEmitter();
      return { req: { method: "GET", path: "/auctions", socket: { destroyed: false } }, res };
    };
    const started: string[] = [];
    const first = request();
    const second = request();
    const third = request();
    await admit(first.req, first.res, () => started.push("first"));
    void admit(second.req, second.res, () => started.push("second"));
    void admit(third.req, third.res, () => started.push("third"));
    await flush();
    expect(started).toEqual(["first"]);
    second.req.socket.destroyed = true; // gave up while waiting
    first.res.emit("close");
    await flush();
    expect(started).toEqual(["first", "third"]);
    // a bid never waits, even with every slot taken
    let bid = false;
    await admit(
      { method: "POST", path: "/api/bids", socket: { destroyed: false } },
      new EventEmitter(),
      () => (bid = true),
    );
    expect(bid).toBe(true);
  });
});
