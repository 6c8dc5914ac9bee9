// Money taken only when asked (docs/decisions/2753): transport is paid from the deposit only when
// the buyer presses that button, a paid (or defaulted) invoice's open checkouts are closed so none
// can be approved again, and a second payment lands on the paid invoice, told it was paid once.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { ServiceOrderCharge } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { PaymentOrder } from "~/models/payment.server";
import { User } from "~/models/user.server";
import { toastCookie } from "~/http/cookies.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { decideTestOrder, findTestOrder } from "~/platform/payments/test-gateway.server";
import * as orderPage from "~/routes/service-orders.$id";
import * as apiPay from "~/routes/api.service-orders.$id.pay";
import { action as purchaseAction } from "~/routes/purchases.$id";
import { loader as returnLoader } from "~/routes/purchases.return";
import { TRANSPORT_MESSAGES } from "~/services/affiliates/messages";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { ledgerTotal } from "~/services/deposits/deposits.server";
import { defaultPurchase } from "~/services/purchases/defaults.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import {
  AlreadyPaidError,
  confirmPurchasePayment,
  payPurchase,
} from "~/services/purchases/paying.server";
import { createTestUser, requestAs } from "../support/auth";
import { arrangeShippingOrder, arrangeWonPurchase, createBuyer } from "../support/purchases";
import { statusOf } from "../support/http";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

/** A paid purchase of a Phoenix lot and its unpaid shipping order, the buyer with `deposit`. */
async function shippingOrder(deposit: string) {
  return arrangeShippingOrder(deposit, { firstName: "Dee", lastName: "Posit" });
}

async function pay(user: User, id: string, form: Record<string, string>) {
  return orderPage.action(
    args(await requestAs(user, `/service-orders/${id}`, { form: { intent: "pay", ...form } }), {
      id,
    }),
  );
}

async function deposit(userId: string) {
  const user = await User.findByPk(userId, { rejectOnEmpty: true });
  return { deposit: user.deposit, ledger: await ledgerTotal(userId) };
}

describe("Ship it asks before paying from the deposit", () => {
  it("shows the buying power after each way of paying; only the deposit button takes from it", async () => {
    const { buyer, order, id } = await shippingOrder("1362.00");
    const price = order.payout;
    const view = await orderPage.loader(
      args(await requestAs(buyer, `/service-orders/${id}`), { id }),
    );
    const afterDeposit = (1362 - Number(price)).toFixed(2);
    expect(view.payment).toMatchObject({
      price,
      available: "1362.00",
      afterDeposit,
      afterGateway: "1362.00",
    });

    // no choice made (an old form): refused, nothing written
    const before = await deposit(buyer.id);
    expect(statusOf(await pay(buyer, id, { price }))).toBe(400);
    // the JSON call without a source goes to checkout: the deposit is never used unasked
    const json = await apiPay.action(
      args(await requestAs(buyer, `/api/service-orders/${id}/pay`, { json: { price } }), { id }),
    );
    expect(await json.json()).toMatchObject({ paid: false });
    // the gateway button: a checkout, the deposit untouched
    const viaGateway = (await pay(buyer, id, { price, source: "gateway" })) as Response;
    expect(viaGateway.status).toBe(302);
    expect(new URL(viaGateway.headers.get("location")!).pathname).toBe("/payments/test-checkout");
    expect(await deposit(buyer.id)).toEqual(before);
    expect((await order.reload()).paymentStatus).toBe("unpaid");
    expect(await ServiceOrderCharge.count({ where: { serviceOrderId: id } })).toBe(0);

    // the deposit button: paid from the deposit, leaving exactly the buying power shown
    const viaDeposit = (await pay(buyer, id, { price, source: "deposit" })) as Response;
    expect(viaDeposit.status).toBe(303);
    expect((await order.reload()).paymentStatus).toBe("paid");
    expect(await availableBuyingPower(buyer.id)).toBe(afterDeposit);
    const after = await deposit(buyer.id);
    expect(after.deposit).toBe(after.ledger);
    expect(after.deposit).toBe(afterDeposit);
  });

  it("the deposit button is refused when the deposit no longer covers it; nothing is written", async () => {
    const { buyer, order, id } = await shippingOrder("100.00");
    const view = await orderPage.loader(
      args(await requestAs(buyer, `/service-orders/${id}`), { id }),
    );
    expect(view.payment?.afterDeposit).toBeNull();
    const before = await deposit(buyer.id);
    const refused = await pay(buyer, id, { price: order.payout, source: "deposit" });
    expect(statusOf(refused)).toBe(409);
    expect((refused as unknown as { data: { payError: string } }).data.payError).toBe(
      TRANSPORT_MESSAGES.depositShort,
    );
    expect(await deposit(buyer.id)).toEqual(before);
    expect((await order.reload()).paymentStatus).toBe("unpaid");
  });

  it("10 deposit presses at once charge once; a replaced checkout and the last open one are closed", async () => {
    const { buyer, order, id } = await shippingOrder("5000.00");
    const first = (await pay(buyer, id, { price: order.payout, source: "gateway" })) as Response;
    const second = (await pay(buyer, id, { price: order.payout, source: "gateway" })) as Response;
    const firstToken = tokenOf(first.headers.get("location")!);
    const secondToken = tokenOf(second.headers.get("location")!);
    // the replaced checkout is closed at the provider: it cannot be approved
    expect((await findTestOrder(firstToken))?.status).toBe("VOIDED");
    expect((await findTestOrder(secondToken))?.status).toBe("CREATED");

    const results = await Promise.all(
      Array.from({ length: 10 }, () => pay(buyer, id, { price: order.payout, source: "deposit" })),
    );
    expect(results.filter((r) => statusOf(r) === 303)).toHaveLength(1);
    expect(results.filter((r) => statusOf(r) === 409)).toHaveLength(9);
    expect(await ServiceOrderCharge.count({ where: { serviceOrderId: id } })).toBe(1);
    // paid from the deposit: the checkout still open is closed too
    expect(await decideTestOrder(secondToken, true)).toBeNull();
    expect((await PaymentOrder.findOne({ where: { providerOrderId: secondToken } }))?.status).toBe(
      "cancelled",
    );
    const after = await deposit(buyer.id);
    expect(after.deposit).toBe(after.ledger);
    expect(after.deposit).toBe((5000 - Number(order.payout)).toFixed(2));
  });
});

describe("a paid invoice's checkouts are closed", () => {
  async function arranged() {
    // the deposit covers the winning bid, the fees go through the gateway
    const buyer = await createBuyer("1500.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1500.00");
    const view = await purchaseView(buyer.id, purchaseId);
    return { buyer, purchaseId, gateway: (view.split!.gatewayCents / 100).toFixed(2) };
  }
  const start = async (buyerId: string, purchaseId: string, gateway: string) =>
    tokenOf(
      ((await payPurchase(buyerId, purchaseId, gateway)) as { approvalUrl: string }).approvalUrl,
    );

  it("a second checkout (another tab) cannot be approved once the first paid", async () => {
    const { buyer, purchaseId, gateway } = await arranged();
    const first = await start(buyer.id, purchaseId, gateway);
    const second = await start(buyer.id, purchaseId, gateway);
    expect(await decideTestOrder(first, true)).toContain("/purchases/return");
    expect(await confirmPurchasePayment(buyer.id, first)).toBe(purchaseId);

    // the other tab's checkout: closed at the provider and on our side
    expect(await decideTestOrder(second, true)).toBeNull();
    expect((await findTestOrder(second))?.status).toBe("VOIDED");
    expect((await PaymentOrder.findOne({ where: { providerOrderId: second } }))?.status).toBe(
      "cancelled",
    );
    // a third try starts nothing
    await expect(payPurchase(buyer.id, purchaseId, gateway)).rejects.toBeInstanceOf(
      AlreadyPaidError,
    );
    const [{ n }] = await sequelize.query<{ n: string }>(
      "SELECT count(*) AS n FROM purchase_payment_orders WHERE purchase_id = :purchaseId",
      { replacements: { purchaseId }, type: QueryTypes.SELECT },
    );
    expect(Number(n)).toBe(2);
  });

  it("two approved checkouts confirmed at once, 10 times: one capture, the other closed uncaptured", async () => {
    const { buyer, purchaseId, gateway } = await arranged();
    const tokens = [
      await start(buyer.id, purchaseId, gateway),
      await start(buyer.id, purchaseId, gateway),
    ];
    for (const token of tokens) await decideTestOrder(token, true);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => confirmPurchasePayment(buyer.id, tokens[i % 2])),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const statuses = await Promise.all(tokens.map(async (t) => (await findTestOrder(t))?.status));
    expect(statuses.sort()).toEqual(["COMPLETED", "VOIDED"]);
    const orders = await PaymentOrder.findAll({
      where: { providerOrderId: tokens },
      order: [["status", "ASC"]],
    });
    expect(orders.map((o) => o.status)).toEqual(["cancelled", "captured"]);
    const after = await deposit(buyer.id);
    expect(after.deposit).toBe(after.ledger);
  });

  it("a defaulted invoice's open checkout is closed", async () => {
    const buyer = await createBuyer("1500.00");
    const soldAt = new Date("2025-06-02T15:00:00Z");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1500.00", { soldAt });
    const view = await purchaseView(buyer.id, purchaseId);
    const token = await start(buyer.id, purchaseId, (view.split!.gatewayCents / 100).toFixed(2));
    const admin = await createTestUser({ role: "admin" });
    setClock(fixedClock(new Date()));
    try {
      await defaultPurchase(admin, purchaseId, "close");
    } finally {
      resetClock();
    }
    expect((await findTestOrder(token))?.status).toBe("VOIDED");
    expect(await decideTestOrder(token, true)).toBeNull();
  });

  it("a re-post of the pay form lands on the paid invoice: This invoice is paid (once)", async () => {
    const buyer = await createBuyer("20000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1200.00");
    const path = `/purchases/${purchaseId}`;
    const post = async () =>
      (await purchaseAction(
        args(await requestAs(buyer, path, { form: { intent: "pay", amount: "0.00" } }), {
          id: purchaseId,
        }),
      )) as Response;
    expect((await post()).headers.get("location")).toBe(`${path}/release`);
    const before = await deposit(buyer.id);
    const again = await post();
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(path);
    expect(await toastCookie.parse(again.headers.get("set-cookie"))).toMatchObject({
      title: "This invoice is paid (once)",
    });
    expect(await deposit(buyer.id)).toEqual(before);
  });

  it("coming back from a checkout of a paid invoice lands on it too", async () => {
    const { buyer, purchaseId, gateway } = await arranged();
    const token = await start(buyer.id, purchaseId, gateway);
    await decideTestOrder(token, true);
    const back = async () =>
      returnLoader(
        args(await requestAs(buyer, `/purchases/return?token=${token}&PayerID=TESTPAYER`)),
      );
    expect((await back()).headers.get("location")).toBe(`/purchases/${purchaseId}/release`);
    const again = await back();
    expect(again.headers.get("location")).toBe(`/purchases/${purchaseId}`);
    expect(await toastCookie.parse(again.headers.get("set-cookie"))).toMatchObject({
      title: "This invoice is paid (once)",
    });
  });
});
