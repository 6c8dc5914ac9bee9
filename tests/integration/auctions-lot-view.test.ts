// The lot page's moving parts come from one read (docs/decisions/2752): the price, the count,
// the history, the viewer's lead and their buying power agree in every read, even while bids land,
// and the page's refetch (/live/lots/:id/state) answers the same read as its loader.
import { describe, expect, it } from "vitest";
import { loader as lotLoader } from "~/routes/auctions.$lotId/route";
import { loader as stateLoader } from "~/routes/live.lots.$lotId_.state";
import { placeBid } from "../support/bids";
import type { LotLiveState } from "~/services/auctions/live";
import { lotView } from "~/services/auctions/lot-view.server";
import { toCents } from "~/utils/money";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { args } from "../support/routes";

/** One read that does not contradict itself, for a viewer whose deposit is `depositCents`. */
function expectAgrees(state: LotLiveState, depositCents: number) {
  const { lot, history, bidder } = state;
  expect(history).toHaveLength(Math.min(lot.bidCount, 25));
  if (lot.bidCount > 0) expect(history[0].amount).toBe(lot.currentBid);
  // plain bids only: whoever bid last leads
  expect(lot.leading).toBe(history.length > 0 && history[0].mine);
  expect(lot.myMax !== null).toBe(lot.leading);
  const held = lot.leading ? toCents(lot.myMax!) : 0;
  expect(toCents(bidder.available)).toBe(depositCents - held);
}

describe("the lot page's state", () => {
  it("agrees with itself in every read while two bidders trade the lead", async () => {
    const alice = await createTestUser({ verified: true, deposit: "5000.00" });
    const bob = await createTestUser({ verified: true, deposit: "5000.00" });
    const lot = await createTestLot();
    const lotId = String(lot.id);
    const reads: LotLiveState[] = [];
    let bidding = true;
    const reader = (async () => {
      while (bidding) reads.push((await lotView(lotId, alice.id))!.state);
    })();
    for (let i = 1; i <= 12; i += 1) {
      const who = i % 2 === 1 ? alice : bob;
      await placeBid(who.id, { lotId, amount: String(100 * i), isProxy: false });
    }
    bidding = false;
    await reader;
    reads.push((await lotView(lotId, alice.id))!.state);
    expect(reads.length).toBeGreaterThan(2);
    for (const state of reads) expectAgrees(state, 500_000);
    const last = reads.at(-1)!;
    expect(last.lot).toMatchObject({ currentBid: "1200.00", bidCount: 12, leading: false });
    expect(last.bidder.available).toBe("5000.00");
    // each read names the newest event of the lot; later reads never name an older one
    const ids = reads.map((r) => BigInt(r.eventId));
    for (let i = 1; i < ids.length; i += 1) expect(ids[i] >= ids[i - 1]).toBe(true);
    expect(ids.at(-1)! > 0n).toBe(true);
  });

  it("the refetch answers the loader's read; an unknown lot is a 404", async () => {
    const viewer = await createTestUser({ verified: true, deposit: "2500.00" });
    const other = await createTestUser({ verified: true, deposit: "2500.00" });
    const lot = await createTestLot();
    const lotId = String(lot.id);
    await placeBid(viewer.id, { lotId, amount: "300", isProxy: false });
    await placeBid(other.id, { lotId, amount: "450", isProxy: false });

    const page = await lotLoader(args(await requestAs(viewer, `/auctions/${lotId}`), { lotId }));
    const fetched = (await stateLoader(
      args(await requestAs(viewer, `/live/lots/${lotId}/state`), { lotId }),
    )) as Response;
    expect(fetched.headers.get("cache-control")).toBe("no-store");
    const state = (await fetched.json()) as LotLiveState;
    const { serverTime: _a, ...fromPage } = page.state;
    const { serverTime: _b, ...fromRefetch } = state;
    expect(fromRefetch).toEqual(fromPage);
    expect(state.lot).toMatchObject({ currentBid: "450.00", bidCount: 2, leading: false });
    expect(state.history.map((h) => h.mine)).toEqual([false, true]);
    expect(state.bidder.available).toBe("2500.00");
    expectAgrees(state, 250_000);

    const missing = await stateLoader(
      args(await requestAs(viewer, "/live/lots/999999999/state"), { lotId: "999999999" }),
    ).catch((error: unknown) => error);
    expect((missing as Response).status).toBe(404);
  });
});
