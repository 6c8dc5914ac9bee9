import { afterEach, describe, expect, it } from "vitest";
import { Bid, Lot, Purchase } from "~/models/auction.server";
import { Notification } from "~/models/notification.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { closeEndedLots, closeLotIfEnded } from "~/services/auctions/closer.server";
import { activeBidCount, BidError } from "~/services/auctions/bidding.server";
import { placeBid } from "../support/bids";
import { availableBuyingPower, exposure } from "~/services/auctions/buying-power.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { fromCents } from "~/utils/money";
import { createTestUser } from "../support/auth";
import { createTestLot } from "../support/lots";

const bidder = (deposit = "5000.00") => createTestUser({ verified: true, deposit });

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BidError) return error.message;
    throw error;
  }
  throw new Error("the bid was accepted");
}

const plain = (lotId: string, amount: string) => ({ lotId, amount, isProxy: false });
const proxy = (lotId: string, amount: string, maxAmount: string) => ({
  lotId,
  amount,
  isProxy: true,
  maxAmount,
});

async function state(lotId: string) {
  const lot = await Lot.findByPk(lotId, { rejectOnEmpty: true });
  const bids = await Bid.findAll({ where: { lotId }, order: [["id", "ASC"]] });
  return { lot, bids };
}

afterEach(() => resetClock());

describe("eligibility", () => {
  it("refuses unverified users and deposits under $400 with the spec's messages", async () => {
    const lot = await createTestLot();
    const unverified = await createTestUser({ verified: false, deposit: "5000.00" });
    const poor = await createTestUser({ verified: true, deposit: "399.99" });
    expect(await rejection(placeBid(unverified.id, plain(lot.id, "100")))).toBe(
      "Verification Required: Please complete KYC verification before bidding.",
    );
    expect(await rejection(placeBid(poor.id, plain(lot.id, "100")))).toBe(
      "Deposit Required: Minimum $400 deposit required before bidding.",
    );
    const ok = await createTestUser({ verified: true, deposit: "400.00" });
    await expect(placeBid(ok.id, plain(lot.id, "100"))).resolves.toMatchObject({
      outcome: "leading",
    });
    expect((await state(lot.id)).bids).toHaveLength(1);
  });
});

describe("minimum increment and amounts", () => {
  it("needs $50 on an empty lot and current bid + $50 after; cents allowed, nothing finer", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    expect(await rejection(placeBid(a.id, plain(lot.id, "49.99")))).toBe(
      "Invalid Bid: Minimum bid is $50.00",
    );
    await placeBid(a.id, plain(lot.id, "50"));
    const b = await bidder();
    expect(await rejection(placeBid(b.id, plain(lot.id, "99.99")))).toBe(
      "Invalid Bid: Minimum bid is $100.00",
    );
    expect(await rejection(placeBid(b.id, plain(lot.id, "100.001")))).toMatch(/^Invalid Bid:/);
    await placeBid(b.id, plain(lot.id, "100.25"));
    const { lot: after, bids } = await state(lot.id);
    expect(after.currentBid).toBe("100.25");
    expect(after.highBidderId).toBe(b.id);
    expect(bids).toHaveLength(2);
    expect(after.bidCount).toBe(2);
  });

  it("refuses a proxy maximum not above the amount", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    expect(await rejection(placeBid(a.id, proxy(lot.id, "500", "500")))).toBe(
      "Invalid Proxy Bid: Maximum proxy bid must be higher than initial bid.",
    );
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(0);
  });
});

describe("buying power across several lots", () => {
  it("holds the maxima of lots the user leads and frees them when outbid", async () => {
    const a = await bidder("1000.00");
    const [l1, l2, l3] = [await createTestLot(), await createTestLot(), await createTestLot()];
    await placeBid(a.id, proxy(l1.id, "100", "600"));
    expect(await exposure(a.id)).toBe("600.00");
    expect(await availableBuyingPower(a.id)).toBe("400.00");
    expect(await rejection(placeBid(a.id, plain(l2.id, "450")))).toBe(
      "Insufficient Funds: Bid amount exceeds your available deposit.",
    );
    expect(await rejection(placeBid(a.id, proxy(l2.id, "100", "401")))).toBe(
      "Insufficient Funds: Bid amount exceeds your available deposit.",
    );
    await placeBid(a.id, plain(l2.id, "400"));
    expect(await availableBuyingPower(a.id)).toBe("0.00");
    // on the lot it already leads, its own maximum does not count against it (up to 600 is
    // within reach there), but a leader's new bid must raise that maximum (record 2702)
    expect(await rejection(placeBid(a.id, proxy(l1.id, "150", "601")))).toBe(
      "Insufficient Funds: Bid amount exceeds your available deposit.",
    );
    expect(await rejection(placeBid(a.id, proxy(l1.id, "150", "600")))).toBe(
      "Already Leading: You are the high bidder with a maximum of $600.00. To raise it, enter a maximum above $600.00.",
    );
    // outbid on l1: the 600 is free again at once
    const b = await bidder();
    await placeBid(b.id, plain(l1.id, "700"));
    expect(await exposure(a.id)).toBe("400.00");
    await placeBid(a.id, plain(l3.id, "600"));
    expect(await availableBuyingPower(a.id)).toBe("0.00");
  });
});

describe("proxy resolution", () => {
  it("proxy vs plain: the proxy answers with a recorded automatic raise and the plain bidder is told", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    const b = await bidder();
    await placeBid(a.id, proxy(lot.id, "100", "1000"));
    const result = await placeBid(b.id, plain(lot.id, "300"));
    expect(result.outcome).toBe("outbid");
    const { lot: after, bids } = await state(lot.id);
    expect(after.highBidderId).toBe(a.id);
    expect(after.currentBid).toBe("350.00");
    expect(after.highMax).toBe("1000.00");
    expect(bids.map((bid) => [bid.userId, bid.amount, bid.automatic])).toEqual([
      [a.id, "100.00", false],
      [b.id, "300.00", false],
      [a.id, "350.00", true],
    ]);
    expect(after.bidCount).toBe(3);
  });

  it("proxy vs proxy: the higher maximum leads at the runner-up's maximum + $50", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    const b = await bidder();
    await placeBid(a.id, proxy(lot.id, "100", "800"));
    const result = await placeBid(b.id, proxy(lot.id, "200", "1200"));
    expect(result.outcome).toBe("leading");
    const { lot: after, bids } = await state(lot.id);
    expect(after.highBidderId).toBe(b.id);
    expect(after.currentBid).toBe("850.00");
    expect(bids[bids.length - 1]).toMatchObject({
      userId: b.id,
      amount: "850.00",
      automatic: true,
    });
    const previousLeaderNotes = await Notification.findAll({ where: { userId: a.id } });
    expect(previousLeaderNotes.map((n) => n.kind)).toEqual(["outbid"]);
  });

  it("caps the price at the leader's maximum when the runner-up comes within $50", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    const b = await bidder();
    await placeBid(a.id, proxy(lot.id, "100", "820"));
    await placeBid(b.id, proxy(lot.id, "200", "800"));
    const { lot: after } = await state(lot.id);
    expect(after.highBidderId).toBe(a.id);
    expect(after.currentBid).toBe("820.00");
  });

  it("equal maxima: the earlier bid wins at that maximum", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    const b = await bidder();
    await placeBid(a.id, proxy(lot.id, "100", "700"));
    const result = await placeBid(b.id, proxy(lot.id, "300", "700"));
    expect(result.outcome).toBe("outbid");
    const { lot: after } = await state(lot.id);
    expect(after.highBidderId).toBe(a.id);
    expect(after.currentBid).toBe("700.00");
    expect(await Notification.count({ where: { userId: a.id } })).toBe(0);
  });

  it("the leader raising their own maximum keeps the lead without bidding against itself", async () => {
    const lot = await createTestLot();
    const a = await bidder();
    const b = await bidder();
    await placeBid(b.id, plain(lot.id, "100"));
    await placeBid(a.id, proxy(lot.id, "150", "500"));
    const before = await state(lot.id);
    const raised = await placeBid(a.id, proxy(lot.id, "200", "900"));
    // only the maximum moves: the price, the count and the end stay (record 2702)
    expect(raised.outcome).toBe("raised");
    expect(raised.currentBid).toBe("150.00");
    expect(raised.bidCount).toBe(before.lot.bidCount);
    let { lot: after } = await state(lot.id);
    expect(after.highBidderId).toBe(a.id);
    expect(after.highMax).toBe("900.00");
    expect(after.currentBid).toBe("150.00");
    expect(after.bidCount).toBe(before.lot.bidCount);
    await placeBid(b.id, plain(lot.id, "600"));
    ({ lot: after } = await state(lot.id));
    expect(after.highBidderId).toBe(a.id);
    expect(after.currentBid).toBe("650.00");
  });
});

describe("timing", () => {
  it("soft close: a bid in the last 2 minutes moves the end to now + 2 minutes", async () => {
    const clock = fixedClock("2030-01-01T12:00:00Z");
    setClock(clock);
    const lot = await createTestLot({
      startsAt: new Date("2030-01-01T10:00:00Z"),
      endsAt: new Date("2030-01-01T12:05:00Z"),
    });
    const a = await bidder();
    await placeBid(a.id, plain(lot.id, "100"));
    expect((await state(lot.id)).lot.endsAt.toISOString()).toBe("2030-01-01T12:05:00.000Z");
    clock.set("2030-01-01T12:03:30Z");
    const b = await bidder();
    const result = await placeBid(b.id, plain(lot.id, "150"));
    expect(result.endsAt.toISOString()).toBe("2030-01-01T12:05:30.000Z");
    expect((await state(lot.id)).lot.endsAt.toISOString()).toBe("2030-01-01T12:05:30.000Z");
  });

  it("refuses a bid at or after the end", async () => {
    const clock = fixedClock("2030-02-01T12:00:00Z");
    setClock(clock);
    const lot = await createTestLot({
      startsAt: new Date("2030-02-01T10:00:00Z"),
      endsAt: new Date("2030-02-01T12:10:00Z"),
    });
    const a = await bidder();
    clock.set("2030-02-01T12:10:00Z");
    expect(await rejection(placeBid(a.id, plain(lot.id, "100")))).toMatch(/^Auction Ended:/);
    clock.advance(1000);
    expect(await rejection(placeBid(a.id, plain(lot.id, "100")))).toMatch(/^Auction Ended:/);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(0);
  });

  it("takes pre-bids before the start; they stand when the lot opens", async () => {
    const clock = fixedClock("2030-03-01T08:00:00Z");
    setClock(clock);
    const lot = await createTestLot({
      startsAt: new Date("2030-03-01T10:00:00Z"),
      endsAt: new Date("2030-03-01T10:01:00Z"),
    });
    const a = await bidder();
    await placeBid(a.id, proxy(lot.id, "100", "900"));
    // no soft close before the lot opens
    expect((await state(lot.id)).lot.endsAt.toISOString()).toBe("2030-03-01T10:01:00.000Z");
    clock.set("2030-03-01T10:00:10Z");
    const b = await bidder();
    expect((await placeBid(b.id, plain(lot.id, "500"))).outcome).toBe("outbid");
    expect((await state(lot.id)).lot.currentBid).toBe("550.00");
  });
});

describe("closing", () => {
  it("sells an ended lot with a leader: purchase, 'You won', exposure moves to the purchase", async () => {
    const clock = fixedClock("2030-04-01T12:00:00Z");
    setClock(clock);
    const lot = await createTestLot({
      startsAt: new Date("2030-04-01T10:00:00Z"),
      endsAt: new Date("2030-04-01T13:00:00Z"),
    });
    const a = await bidder("2000.00");
    const b = await bidder();
    await placeBid(a.id, proxy(lot.id, "100", "1500"));
    await placeBid(b.id, plain(lot.id, "400"));
    expect(await exposure(a.id)).toBe("1500.00");
    expect(await activeBidCount(a.id)).toBe(1);
    clock.set("2030-04-01T13:00:00Z");
    expect(await closeEndedLots()).toBeGreaterThanOrEqual(1);
    const { lot: after } = await state(lot.id);
    expect(after.status).toBe("sold");
    const purchase = await Purchase.findOne({ where: { lotId: lot.id }, rejectOnEmpty: true });
    expect(purchase).toMatchObject({ userId: a.id, amount: "450.00", status: "pending" });
    // the hold is now the invoice's whole total, bid and fees (record 3510)
    const invoice = await purchaseView(a.id, String(purchase.id));
    expect(invoice.totalCents).toBeGreaterThan(45_000);
    expect(await exposure(a.id)).toBe(fromCents(invoice.totalCents));
    expect(await activeBidCount(a.id)).toBe(0);
    const won = await Notification.findAll({ where: { userId: a.id, kind: "auction_won" } });
    expect(won).toHaveLength(1);
    expect(won[0].title).toBe("You won");
    // closing again changes nothing
    expect(await closeLotIfEnded(lot.id)).toBeNull();
    expect(await Purchase.count({ where: { lotId: lot.id } })).toBe(1);
  });

  it("ends a lot without bids unsold", async () => {
    const clock = fixedClock("2030-05-01T12:00:00Z");
    setClock(clock);
    const lot = await createTestLot({
      startsAt: new Date("2030-05-01T10:00:00Z"),
      endsAt: new Date("2030-05-01T11:00:00Z"),
    });
    expect(await closeLotIfEnded(lot.id)).toBe("unsold");
    const { lot: after } = await state(lot.id);
    expect(after.status).toBe("unsold");
    expect(await Purchase.count({ where: { lotId: lot.id } })).toBe(0);
  });
});
