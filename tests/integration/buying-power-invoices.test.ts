// Issue 42, finding 3 (record 3510): buying power as the Terms define it, the deposit less the
// maxima held on lots the buyer leads less every unpaid invoice's WHOLE total (bid and fees; the
// late fee once past due). The same figure on every screen that shows it (dashboard, lot page,
// invoice pay choices, deposit page), in the bid check and in the refusals; paying an invoice
// from the deposit leaves it where it was.
import { describe, expect, it } from "vitest";
import type { User } from "~/models/user.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { loader as dashboardLoader } from "~/routes/_index";
import { loader as lotLoader } from "~/routes/auctions.$lotId/route";
import { loader as depositLoader } from "~/routes/deposit/route";
import { loader as purchaseLoader } from "~/routes/purchases.$id";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { placeBid } from "../support/bids";
import { reviewRefund } from "~/services/deposits/deposits.server";
import { loadTerms } from "~/services/purchases/schedules.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { payPurchase } from "~/services/purchases/paying.server";
import { fromCents } from "~/utils/money";
import { requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

/** A loader's answer, whether it came wrapped in data() or plain. */
const body = <T>(result: T) =>
  ((result as { data?: unknown }).data ?? result) as T extends { data: infer D } ? D : T;

/** The buying power each screen shows `user`, in dollars ("162.00"). */
async function screens(user: User, lotId: string, purchaseId: string | null) {
  const dashboard = body(await dashboardLoader(args(await requestAs(user, "/"))));
  const lot = body(
    await lotLoader(args(await requestAs(user, `/auctions/${lotId}`), { lotId: String(lotId) })),
  );
  const deposit = body(await depositLoader(args(await requestAs(user, "/deposit"))));
  const figures: Record<string, string> = {
    service: await availableBuyingPower(user.id),
    dashboard: (dashboard as { available: string }).available,
    lot: lot.state.bidder.available,
    deposit: deposit.available,
  };
  if (purchaseId) {
    const invoice = body(
      await purchaseLoader(
        args(await requestAs(user, `/purchases/${purchaseId}`), { id: purchaseId }),
      ),
    );
    figures.invoice = fromCents(invoice.purchase.choices!.buyingPowerNowCents);
  }
  return figures;
}

const everywhere = (figures: Record<string, string>, expected: string) =>
  expect(figures).toEqual(Object.fromEntries(Object.keys(figures).map((k) => [k, expected])));

/** A bid over `available` is refused as the Terms say; one at it is taken. */
async function bidsStopAt(user: User, available: string) {
  const lot = await createTestLot();
  const over = (Number(available) + 0.01).toFixed(2);
  await expect(
    placeBid(user.id, { lotId: lot.id, amount: over, isProxy: false }),
  ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("Insufficient Funds") });
  // and a refund of more than it is refused naming the same figure
  await expect(reviewRefund(user.id, over)).rejects.toThrow(
    `You can refund at most $${Number(available).toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
  );
  if (Number(available) >= 50) {
    const placed = await placeBid(user.id, { lotId: lot.id, amount: available, isProxy: false });
    expect(placed.outcome).toBe("leading");
  }
}

describe("buying power holds each unpaid invoice's whole total", () => {
  it("no invoice, one leading bid: the deposit less the maximum, on every screen", async () => {
    const buyer = await createBuyer("1000.00");
    const lot = await createTestLot();
    await placeBid(buyer.id, {
      lotId: lot.id,
      amount: "200.00",
      maxAmount: "250.00",
      isProxy: true,
    });
    const other = await createTestLot();
    everywhere(await screens(buyer, other.id, null), "750.00");
    await bidsStopAt(buyer, "750.00");
  });

  it("a $1,000 deposit and an unpaid $300 win: the invoice's fees are held too ($162 left)", async () => {
    const buyer = await createBuyer("1000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "300.00", { titleType: "salvage" });
    const view = await purchaseView(buyer.id, purchaseId);
    // the $300 bid and $538 of fees (salvage title), as the issue found them
    expect(view.totalCents).toBe(83_800);
    const lot = await createTestLot();
    everywhere(await screens(buyer, lot.id, purchaseId), "162.00");
    await bidsStopAt(buyer, "162.00");
  });

  it("several invoices and a leading bid: every total and the maximum are held, the same everywhere", async () => {
    const buyer = await createBuyer("5000.00");
    const first = await arrangeWonPurchase(buyer, "300.00");
    const second = await arrangeWonPurchase(buyer, "1000.00", { titleType: "salvage" });
    const totals =
      (await purchaseView(buyer.id, first.purchaseId)).totalCents +
      (await purchaseView(buyer.id, second.purchaseId)).totalCents;
    const lot = await createTestLot();
    await placeBid(buyer.id, { lotId: lot.id, amount: "400.00", isProxy: false });
    const expected = fromCents(500_000 - totals - 40_000);
    const other = await createTestLot();
    everywhere(await screens(buyer, other.id, second.purchaseId), expected);
    await bidsStopAt(buyer, expected);
  });

  it("bids fired at once cannot spend an invoice's fees: at most what is left is led", async () => {
    const buyer = await createBuyer("1000.00");
    await arrangeWonPurchase(buyer, "300.00", { titleType: "salvage" });
    // $162 is left: ten $100 bids on ten lots at once, one can lead
    const lots = await Promise.all(Array.from({ length: 10 }, () => createTestLot()));
    const answers = await Promise.allSettled(
      lots.map((lot) => placeBid(buyer.id, { lotId: lot.id, amount: "100.00", isProxy: false })),
    );
    expect(answers.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status === "rejected")) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ status: 400 });
    }
    expect(await availableBuyingPower(buyer.id)).toBe("62.00");
  });

  it("paying an invoice from the deposit leaves the figure where it was", async () => {
    const buyer = await createBuyer("3000.00");
    const first = await arrangeWonPurchase(buyer, "300.00");
    const second = await arrangeWonPurchase(buyer, "500.00");
    const before = await availableBuyingPower(buyer.id);
    const view = await purchaseView(buyer.id, first.purchaseId);
    // the choice the invoice offers says so before paying
    expect(view.choices!.deposit).toMatchObject({
      depositCents: view.totalCents,
      gatewayCents: 0,
      afterCents: view.choices!.buyingPowerNowCents,
    });
    const paid = await payPurchase(buyer.id, first.purchaseId, "0.00", "deposit");
    expect(paid.paid).toBe(true);
    expect(await availableBuyingPower(buyer.id)).toBe(before);
    const lot = await createTestLot();
    everywhere(await screens(buyer, lot.id, second.purchaseId), before);
  });

  it("an overdue invoice holds its late fee from the moment it is charged", async () => {
    const buyer = await createBuyer("3000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "300.00");
    const terms = await loadTerms();
    const dueAt = new Date((await purchaseView(buyer.id, purchaseId)).dueAt!);
    const clock = fixedClock(new Date(dueAt.getTime() + 60_000));
    setClock(clock);
    try {
      const view = await purchaseView(buyer.id, purchaseId);
      expect(view.lines.at(-1)).toMatchObject({ code: "late_fee", cents: terms.lateFeeCents });
      const expected = fromCents(300_000 - view.totalCents);
      const lot = await createTestLot({ endsAt: new Date(dueAt.getTime() + 24 * 3600_000) });
      everywhere(await screens(buyer, lot.id, purchaseId), expected);
      await payPurchase(buyer.id, purchaseId, "0.00", "deposit");
      expect(await availableBuyingPower(buyer.id)).toBe(expected);
    } finally {
      resetClock();
    }
  });
});
