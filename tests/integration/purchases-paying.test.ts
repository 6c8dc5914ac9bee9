// Invoices and paying them: the invoice the closer writes, the deposit applied first, the gateway
// for the rest, exactly once under concurrency, every movement in a ledger, refusals write nothing.
import { describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { ledgerTotal } from "~/services/deposits/deposits.server";
import { exposure } from "~/services/auctions/buying-power.server";
import { invoiceLines, linesTotal } from "~/services/purchases/fees";
import { loadSchedules, loadTerms } from "~/services/purchases/schedules.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import {
  PAYING_MESSAGES,
  cancelPurchasePayment,
  confirmPurchasePayment,
  payPurchase,
} from "~/services/purchases/paying.server";
import { PurchaseError } from "~/services/purchases/errors";
import { decideTestOrder } from "~/platform/payments/test-gateway.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { withTestGateway } from "../support/gateway";

withTestGateway();

const select = <T extends object>(sql: string, replacements: Record<string, unknown>) =>
  sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

async function books(userId: string, purchaseId: string) {
  const user = await User.findByPk(userId, { rejectOnEmpty: true });
  const [purchase] = await select<{ status: string }>(
    "SELECT status FROM purchases WHERE id = :id",
    {
      id: purchaseId,
    },
  );
  const entries = await select<{ kind: string; amount: string }>(
    "SELECT kind, amount FROM purchase_entries WHERE purchase_id = :id ORDER BY kind",
    { id: purchaseId },
  );
  const applied = await select<{ amount: string }>(
    "SELECT amount FROM deposit_entries WHERE purchase_id = :id",
    { id: purchaseId },
  );
  const orders = await select<{ status: string }>(
    `SELECT o.status FROM payment_orders o JOIN purchase_payment_orders p ON p.payment_order_id = o.id
      WHERE p.purchase_id = :id`,
    { id: purchaseId },
  );
  return {
    deposit: user.deposit,
    ledger: await ledgerTotal(userId),
    status: purchase.status,
    entries,
    entriesCents: entries.reduce((sum, e) => sum + Math.round(Number(e.amount) * 100), 0),
    applied: applied.map((a) => a.amount),
    captured: orders.filter((o) => o.status === "captured").length,
    orders: orders.length,
    held: await exposure(userId),
  };
}

describe("the invoice", () => {
  it("is written when the lot closes: every fee line from the schedules, due in business days", async () => {
    const buyer = await createBuyer("5000.00");
    const soldAt = new Date("2025-06-06T15:00:00Z"); // a Friday, long past
    const { purchaseId } = await arrangeWonPurchase(buyer, "2450.00", {
      titleType: "salvage",
      soldAt,
    });
    const schedules = await loadSchedules();
    const terms = await loadTerms();
    const view = await purchaseView(buyer.id, purchaseId);
    const expected = invoiceLines(schedules, 245_000, "salvage");
    expect(view.lines.slice(0, 5)).toEqual(expected);
    expect(view.totalCents).toBe(linesTotal(expected) + terms.lateFeeCents);
    // the non-clean schedule, not the clean one
    expect(view.lines[1].cents).toBe(
      schedules.buyer_nonclean.find((b) => b.minCents === 240_000)!.feeCents,
    );
    expect(view.lines[1].cents).not.toBe(invoiceLines(schedules, 245_000, "clean")[1].cents);
    // Fri + 3 business days = Wednesday, at the close of the Texas yard's day: 5 PM CDT
    expect(terms.dueBusinessDays).toBe(3);
    expect(view.dueAt).toBe("2025-06-11T22:00:00.000Z");
    // overdue long ago: the late fee is on the invoice now
    expect(view.overdue).toBe(true);
    expect(view.lines.at(-1)).toEqual({
      code: "late_fee",
      label: "Late payment fee",
      cents: terms.lateFeeCents,
    });
    const won = await select<{ link: string }>(
      "SELECT link FROM notifications WHERE user_id = :id AND kind = 'auction_won'",
      { id: buyer.id },
    );
    expect(won.map((n) => n.link)).toEqual([`/purchases/${purchaseId}`]);
  });

  it("is not shown to anyone else", async () => {
    const buyer = await createBuyer("5000.00");
    const other = await createBuyer("5000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "900.00");
    await expect(purchaseView(other.id, purchaseId)).toBeRefused(404);
  });
});

describe("paying from the deposit alone", () => {
  it("10 concurrent payments settle it once; deposit = ledger; no hold left; entries = total", async () => {
    const buyer = await createBuyer("20000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1200.00");
    const before = await purchaseView(buyer.id, purchaseId);
    expect(before.split).toEqual({ depositCents: before.totalCents, gatewayCents: 0 });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => payPurchase(buyer.id, purchaseId, "0.00")),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PurchaseError);
      expect((r as PromiseRejectedResult).reason.status).toBe(409);
    }
    const after = await books(buyer.id, purchaseId);
    expect(after.status).toBe("paid");
    expect(after.deposit).toBe(after.ledger);
    expect(Math.round(Number(after.deposit) * 100)).toBe(2_000_000 - before.totalCents);
    expect(after.entriesCents).toBe(before.totalCents);
    expect(after.applied).toEqual([(-before.totalCents / 100).toFixed(2)]);
    expect(after.held).toBe("0.00");
    const release = await purchaseView(buyer.id, purchaseId);
    expect(release.pickupCode).toMatch(/^[A-Z0-9]{8}$/);
  });
});

describe("paying with the deposit and the gateway", () => {
  async function arranged() {
    // the deposit covers the winning bid, the fees go through the gateway
    const buyer = await createBuyer("1500.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1500.00");
    const view = await purchaseView(buyer.id, purchaseId);
    expect(view.split!.depositCents).toBe(150_000);
    expect(view.split!.gatewayCents).toBe(view.totalCents - 150_000);
    return { buyer, purchaseId, view };
  }
  const gatewayPart = (view: Awaited<ReturnType<typeof purchaseView>>) =>
    (view.split!.gatewayCents / 100).toFixed(2);
  const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

  it("10 concurrent confirmations, over several started orders, settle it once", async () => {
    const { buyer, purchaseId, view } = await arranged();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const started = await payPurchase(buyer.id, purchaseId, gatewayPart(view));
      expect(started.paid).toBe(false);
      const token = tokenOf((started as { approvalUrl: string }).approvalUrl);
      expect(await decideTestOrder(token, true)).toContain("/purchases/return");
      tokens.push(token);
    }
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => confirmPurchasePayment(buyer.id, tokens[i % 3])),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    // the others are refused as already paid, not lost to a deadlock or a gateway error
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(PurchaseError);
      expect((r as PromiseRejectedResult).reason.status).toBe(409);
    }
    const after = await books(buyer.id, purchaseId);
    expect(after).toMatchObject({ status: "paid", captured: 1, orders: 3, held: "0.00" });
    expect(after.deposit).toBe(after.ledger);
    expect(after.deposit).toBe("0.00");
    expect(after.entries.map((e) => e.kind)).toEqual(["deposit", "gateway"]);
    expect(after.entriesCents).toBe(view.totalCents);
  });

  it("a second capture of the same order: 409, nothing written", async () => {
    const { buyer, purchaseId, view } = await arranged();
    const started = (await payPurchase(buyer.id, purchaseId, gatewayPart(view))) as {
      approvalUrl: string;
    };
    await decideTestOrder(tokenOf(started.approvalUrl), true);
    expect(await confirmPurchasePayment(buyer.id, tokenOf(started.approvalUrl))).toBe(purchaseId);
    const paid = await books(buyer.id, purchaseId);
    await expect(confirmPurchasePayment(buyer.id, tokenOf(started.approvalUrl))).toBeRefused(
      409,
      "This purchase is already paid.",
    );
    expect(await books(buyer.id, purchaseId)).toEqual(paid);
  });

  it("someone else's invoice or order, a tampered amount: 4xx, nothing written", async () => {
    const { buyer, purchaseId, view } = await arranged();
    const other = await createBuyer("5000.00");
    const before = await books(buyer.id, purchaseId);
    await expect(payPurchase(other.id, purchaseId, gatewayPart(view))).toBeRefused(404);
    await expect(payPurchase(buyer.id, purchaseId, "1.00")).toBeRefused(409);
    await expect(payPurchase(buyer.id, purchaseId, "0.00")).toBeRefused(409);
    const started = (await payPurchase(buyer.id, purchaseId, gatewayPart(view))) as {
      approvalUrl: string;
    };
    await decideTestOrder(tokenOf(started.approvalUrl), true);
    await expect(confirmPurchasePayment(other.id, tokenOf(started.approvalUrl))).toBeRefused(404);
    const after = await books(buyer.id, purchaseId);
    expect({ ...after, orders: before.orders }).toEqual(before);
    expect(after.orders).toBe(1); // only the buyer's own, untouched order
    expect((await books(other.id, purchaseId)).ledger).toBe("5000.00");
  });

  it("a gateway failure at capture leaves the invoice unpaid and the deposit untouched", async () => {
    const { buyer, purchaseId, view } = await arranged();
    const before = await books(buyer.id, purchaseId);
    const started = (await payPurchase(buyer.id, purchaseId, gatewayPart(view))) as {
      approvalUrl: string;
    };
    // never approved: the gateway declines the capture
    await expect(confirmPurchasePayment(buyer.id, tokenOf(started.approvalUrl))).toBeRefused(502);
    const after = await books(buyer.id, purchaseId);
    expect(after).toMatchObject({
      status: "pending",
      deposit: "1500.00",
      ledger: "1500.00",
      captured: 0,
    });
    expect(after.entries).toEqual([]);
    expect(after.applied).toEqual([]);
    expect(after.held).toBe(before.held);
    // and paying afterwards still works
    await decideTestOrder(tokenOf(started.approvalUrl), true);
    await confirmPurchasePayment(buyer.id, tokenOf(started.approvalUrl));
    expect((await books(buyer.id, purchaseId)).status).toBe("paid");
  });
  it("a checkout approved after the due date is not settled without the late fee", async () => {
    const { buyer, purchaseId, view } = await arranged();
    const started = (await payPurchase(buyer.id, purchaseId, gatewayPart(view))) as {
      approvalUrl: string;
    };
    const token = tokenOf(started.approvalUrl);
    await decideTestOrder(token, true);
    const [{ due_at: dueAt }] = await select<{ due_at: Date }>(
      "SELECT due_at FROM purchases WHERE id = :id",
      { id: purchaseId },
    );
    setClock(fixedClock(new Date(new Date(dueAt).getTime() + 60 * 60 * 1000)));
    try {
      // read past the due date: the late fee is held from then on (record 3510)
      const before = await books(buyer.id, purchaseId);
      await expect(confirmPurchasePayment(buyer.id, token)).toBeRefused(
        409,
        PAYING_MESSAGES.amountChanged,
      );
      expect(await books(buyer.id, purchaseId)).toEqual(before);
      // paying again asks for the invoice with its late fee
      const now = await purchaseView(buyer.id, purchaseId);
      expect(now.totalCents).toBeGreaterThan(view.totalCents);
      const again = (await payPurchase(buyer.id, purchaseId, gatewayPart(now))) as {
        approvalUrl: string;
      };
      await decideTestOrder(tokenOf(again.approvalUrl), true);
      await confirmPurchasePayment(buyer.id, tokenOf(again.approvalUrl));
      const paid = await books(buyer.id, purchaseId);
      expect(paid.status).toBe("paid");
      expect(paid.entriesCents).toBe(now.totalCents);
      const [{ late_fee: lateFee }] = await select<{ late_fee: string }>(
        "SELECT late_fee FROM purchases WHERE id = :id",
        { id: purchaseId },
      );
      expect(Number(lateFee)).toBeGreaterThan(0);
    } finally {
      resetClock();
    }
  });

  it("a checkout the buyer turned back from is not captured later: 409, nothing written", async () => {
    const { buyer, purchaseId, view } = await arranged();
    const started = (await payPurchase(buyer.id, purchaseId, gatewayPart(view))) as {
      approvalUrl: string;
    };
    const token = tokenOf(started.approvalUrl);
    await decideTestOrder(token, true);
    expect(await cancelPurchasePayment(buyer.id, token)).toBe(purchaseId);
    const before = await books(buyer.id, purchaseId);
    await expect(confirmPurchasePayment(buyer.id, token)).toBeRefused(
      409,
      PAYING_MESSAGES.orderClosed,
    );
    expect(await books(buyer.id, purchaseId)).toEqual(before);
    expect(before).toMatchObject({ status: "pending", captured: 0 });
  });
});
