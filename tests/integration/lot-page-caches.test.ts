// What the lot page keeps between requests (docs/decisions/3543): the fee schedules and terms
// until they change (an admin's change shows on the next read, in every worker), and a make and
// model's comparable sales, read once by a crowd; neither holds anything of a user.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import { loader as lotLoader } from "~/routes/auctions.$lotId/route";
import { comparableSales, forgetComparables } from "~/services/results/results.server";
import { feesAt, loadSchedules, replaceSchedule } from "~/services/purchases/schedules.server";
import { lotView } from "~/services/auctions/lot-view.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";

const args = (request: Request, lotId: string) => ({ request, params: { lotId }, context: {} });

afterEach(() => vi.restoreAllMocks());

describe("the fee schedules the lot page keeps", () => {
  it("are read once per version, and an admin's change shows on the next page", async () => {
    const admin = await createTestUser({ role: "admin" });
    const buyer = await createTestUser({ verified: true, deposit: "1000.00" });
    const lot = await createTestLot({ titleType: "salvage" });
    const gate = async () => {
      const page = await lotLoader(args(await requestAs(buyer, `/auctions/${lot.id}`), lot.id));
      return page.estimate!.lines.find((line) => line.code === "gate_fee")!.cents;
    };
    const before = await gate();
    const bands = (await loadSchedules()).gate;
    const spy = vi.spyOn(sequelize, "query");
    const reads = () =>
      spy.mock.calls.filter(([sql]) => String(sql).includes("FROM fee_bands ORDER BY")).length;
    // the same version: the kept schedules, no read of the bands
    expect(await gate()).toBe(before);
    expect(reads()).toBe(0);

    await replaceSchedule(admin, "gate", [
      { minCents: 0, maxCents: null, feeCents: before + 1234, percentBp: 0 },
    ]);
    expect(await gate()).toBe(before + 1234);
    expect(reads()).toBe(2); // the admin's own read of the schedule, then the page's once
    await replaceSchedule(admin, "gate", bands);
    expect(await gate()).toBe(before);
  });

  it("share one read among requests that find the same new version", async () => {
    const buyer = await createTestUser();
    const lot = await createTestLot();
    const view = await lotView(lot.id, buyer.id);
    const version = `${view!.feesVersion}-test-${Date.now()}`;
    const loads = await Promise.all(Array.from({ length: 5 }, () => feesAt(version)));
    expect(new Set(loads).size).toBe(1);
  });
});

describe("the comparable sales the lot page keeps", () => {
  it("are read once for a crowd on one make and model, and leave the lot itself out", async () => {
    forgetComparables();
    const model = `Crowd${Date.now()}`.slice(0, 20);
    const winner = await createTestUser();
    for (const price of ["3000.00", "3400.00", "3800.00"]) {
      await createTestLot({
        model,
        status: "sold",
        highBidderId: winner.id,
        currentBid: price,
        highMax: price,
        closedAt: new Date(),
        startsAt: new Date(Date.now() - 3 * 86400_000),
        endsAt: new Date(Date.now() - 86400_000),
      });
    }
    const open = await createTestLot({ model });
    const spy = vi.spyOn(sequelize, "query");
    const answers = await Promise.all(Array.from({ length: 10 }, () => comparableSales(open)));
    const reads = spy.mock.calls.filter(([sql]) => String(sql).includes("status = 'sold'"));
    expect(reads).toHaveLength(1);
    expect(answers.every((answer) => answer.spread.count === 3)).toBe(true);
    // a sold lot of the same make and model is never its own comparable
    const sold = await createTestLot({
      model,
      status: "sold",
      highBidderId: winner.id,
      currentBid: "9000.00",
      highMax: "9000.00",
      closedAt: new Date(),
      startsAt: new Date(Date.now() - 3 * 86400_000),
      endsAt: new Date(Date.now() - 86400_000),
    });
    forgetComparables();
    const own = await comparableSales(sold);
    expect(own.sales.map((sale) => sale.id)).not.toContain(String(sold.id));
    expect(own.spread.count).toBe(3);
    expect((await comparableSales(open)).spread.count).toBe(4);
  });
});
