// The leader rule (docs/decisions/2702): a new bid from the lot's current leader only raises
// their maximum. The price, the bid count, the end, the history, the other bidders' view and the
// live events stay as they were, through the JSON call and the no-JS form alike.
import { QueryTypes } from "sequelize";
import { afterEach, describe, expect, it } from "vitest";
import { Bid, Lot } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import { Notification } from "~/models/notification.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { action as bidsAction } from "~/routes/api.bids";
import { action as lotAction, loader as lotPage } from "~/routes/auctions.$lotId/route";
import { toastCookie } from "~/http/cookies.server";
import { placeBid } from "../support/bids";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { responseOf } from "../support/http";
import { args } from "../support/routes";

async function lotEvents(lotId: string) {
  const [row] = await sequelize.query<{ n: string }>(
    "SELECT count(*) AS n FROM lot_events WHERE lot_id = :lotId",
    { replacements: { lotId }, type: QueryTypes.SELECT },
  );
  return Number(row.n);
}

const bidder = () => createTestUser({ verified: true, deposit: "2000.00" });

const postJson = async (user: Awaited<ReturnType<typeof bidder>>, body: object) =>
  bidsAction(args(await requestAs(user, "/api/bids", { json: body })));

afterEach(() => resetClock());

describe("a leader's new bid", () => {
  it("over JSON: raises only the maximum; price, count, history, events and others' view stay", async () => {
    const lot = await createTestLot();
    const leader = await bidder();
    const other = await bidder();
    expect((await postJson(leader, { vehicleId: lot.id, amount: "60" })).status).toBe(201);
    const eventsBefore = await lotEvents(lot.id);
    const notesBefore = await Notification.count();
    const seenBefore = await lotPage(
      args(await requestAs(other, `/auctions/${lot.id}`), { lotId: lot.id }),
    );

    // the lot 5: leading at $60, a proxy bid of $110 with a $500 maximum
    const raised = await postJson(leader, {
      vehicleId: lot.id,
      amount: "110",
      isProxyBid: true,
      maxAmount: "500",
    });
    expect(raised.status).toBe(201);
    expect(await raised.json()).toMatchObject({
      message:
        "Maximum Raised: You are still the high bidder. Your new maximum is held for you; the price moves only when another bidder bids.",
      bid: { outcome: "raised", currentBid: "60.00", bidCount: 1 },
    });
    const after = await Lot.findByPk(lot.id, { rejectOnEmpty: true });
    expect([after.currentBid, after.bidCount, after.highMax]).toEqual(["60.00", 1, "500.00"]);
    expect(after.endsAt.getTime()).toBe(lot.endsAt.getTime());
    // no live event (nothing anyone sees changed) and no notification
    expect(await lotEvents(lot.id)).toBe(eventsBefore);
    expect(await Notification.count()).toBe(notesBefore);
    // the other bidder's page reads exactly as before: no "you $60, you $110"
    const seenAfter = await lotPage(
      args(await requestAs(other, `/auctions/${lot.id}`), { lotId: lot.id }),
    );
    expect(seenAfter.state.history).toEqual(seenBefore.state.history);
    expect(seenAfter.lot.currentBid).toBe("60.00");
    expect(seenAfter.lot.bidCount).toBe(1);
    // the leader's own page shows the new maximum and the one bid
    const mine = await lotPage(
      args(await requestAs(leader, `/auctions/${lot.id}`), { lotId: lot.id }),
    );
    expect(mine.lot).toMatchObject({ currentBid: "60.00", leading: true, myMax: "500.00" });
    expect(mine.state.history.map((entry) => entry.amount)).toEqual(["60.00"]);

    // a maximum that is not above the standing one: 400, the reason, nothing written
    const rows = await Bid.count({ where: { lotId: lot.id } });
    const same = await postJson(leader, {
      vehicleId: lot.id,
      amount: "200",
      isProxyBid: true,
      maxAmount: "500",
    });
    expect(same.status).toBe(400);
    expect((await same.json()).message).toBe(
      "Already Leading: You are the high bidder with a maximum of $500.00. To raise it, enter a maximum above $500.00.",
    );
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(rows);

    // someone else bids: the raised maximum answers, at their bid + $50
    const challenge = await postJson(other, { vehicleId: lot.id, amount: "300" });
    expect(challenge.status).toBe(201);
    expect((await challenge.json()).bid).toMatchObject({ outcome: "outbid", currentBid: "350.00" });
  });

  it("over the no-JS form: a redirect with the raise's toast, and the price stays", async () => {
    const lot = await createTestLot();
    const leader = await bidder();
    const post = async (form: Record<string, string>) =>
      responseOf(
        lotAction(
          args(
            await requestAs(leader, `/auctions/${lot.id}`, { form: { intent: "bid", ...form } }),
            {
              lotId: lot.id,
            },
          ),
        ),
      );
    expect((await post({ amount: "75" })).status).toBe(302);
    // the lot 4 (JS off): $75, then $125 from the same leader
    const raised = await post({ amount: "125" });
    expect(raised.status).toBe(302);
    const toast = await toastCookie.parse(
      raised.headers
        .get("Set-Cookie")!
        .split(/,(?=\s*__)/)
        .find((c) => c.includes("__toast"))!,
    );
    expect(toast).toMatchObject({
      title: "Maximum Raised",
      description:
        "Your maximum is now $125.00. You are still the high bidder at $75.00: the price moves only when another bidder bids.",
    });
    const after = await Lot.findByPk(lot.id, { rejectOnEmpty: true });
    expect([after.currentBid, after.bidCount, after.highMax]).toEqual(["75.00", 1, "125.00"]);
  });

  it("never moves the end: a raise in the last two minutes is not a bid for the soft close", async () => {
    const clock = fixedClock("2030-03-01T12:00:00Z");
    setClock(clock);
    const lot = await createTestLot({
      startsAt: new Date("2030-03-01T10:00:00Z"),
      endsAt: new Date("2030-03-01T12:05:00Z"),
    });
    const leader = await bidder();
    await placeBid(leader.id, { lotId: lot.id, amount: "100", isProxy: false });
    clock.set("2030-03-01T12:04:00Z");
    const raised = await placeBid(leader.id, {
      lotId: lot.id,
      amount: "150",
      isProxy: true,
      maxAmount: "900",
    });
    expect(raised.outcome).toBe("raised");
    expect(raised.endsAt.toISOString()).toBe("2030-03-01T12:05:00.000Z");
    // another bidder's bid in the same window does extend it
    const other = await bidder();
    const answered = await placeBid(other.id, { lotId: lot.id, amount: "150", isProxy: false });
    expect(answered.outcome).toBe("outbid");
    expect(answered.endsAt.toISOString()).toBe("2030-03-01T12:06:00.000Z");
  });

  it("a raise counts from when it was made: an equal maximum placed later loses the tie", async () => {
    const lot = await createTestLot();
    const leader = await bidder();
    const late = await bidder();
    await placeBid(leader.id, { lotId: lot.id, amount: "100", isProxy: false });
    await placeBid(leader.id, { lotId: lot.id, amount: "150", isProxy: true, maxAmount: "800" });
    const tie = await placeBid(late.id, {
      lotId: lot.id,
      amount: "200",
      isProxy: true,
      maxAmount: "800",
    });
    expect(tie.outcome).toBe("outbid");
    const after = await Lot.findByPk(lot.id, { rejectOnEmpty: true });
    expect([after.highBidderId, after.currentBid, after.highMax]).toEqual([
      leader.id,
      "800.00",
      "800.00",
    ]);
  });

  it("a raise is held against the deposit like any maximum", async () => {
    const lot = await createTestLot();
    const leader = await createTestUser({ verified: true, deposit: "1000.00" });
    await placeBid(leader.id, { lotId: lot.id, amount: "100", isProxy: false });
    await expect(
      placeBid(leader.id, { lotId: lot.id, amount: "150", isProxy: true, maxAmount: "1000.01" }),
    ).rejects.toThrow("Insufficient Funds");
    const raised = await placeBid(leader.id, {
      lotId: lot.id,
      amount: "150",
      isProxy: true,
      maxAmount: "1000",
    });
    expect(raised.outcome).toBe("raised");
    // the whole deposit is now held by this lot
    const other = await createTestLot();
    await expect(
      placeBid(leader.id, { lotId: other.id, amount: "50", isProxy: false }),
    ).rejects.toThrow("Insufficient Funds");
  });
});
