// Transport from a won lot: "Ship it" (?lot=), the review step, paying once (deposit or the
// TEST MODE gateway), and the provider's earnings credited once on completion.
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { ProviderEarning, ServiceOrder, ServiceOrderCharge } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { DepositEntry } from "~/models/deposit-entry.server";
import { Notification } from "~/models/notification.server";
import { PaymentOrder } from "~/models/payment.server";
import { User } from "~/models/user.server";
import * as apiComplete from "~/routes/api.service-orders.$id.complete";
import * as apiPay from "~/routes/api.service-orders.$id.pay";
import * as apiClaim from "~/routes/api.service-orders.$id.claim";
import * as board from "~/routes/service-orders._index/route";
import * as earningsPage from "~/routes/service-orders.earnings";
import * as orderPage from "~/routes/service-orders.$id";
import * as paymentReturn from "~/routes/service-orders.payment.return";
import * as paymentCancel from "~/routes/service-orders.payment.cancel";
import * as requestPage from "~/routes/service-orders.request";
import { toastCookie } from "~/http/cookies.server";
import { TRANSPORT_MESSAGES } from "~/services/affiliates/messages";
import { splitPayout } from "~/services/affiliates/rules";
import { listOrdersForLot } from "~/services/affiliates/service-order-views.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { ledgerTotal, recordOpeningBalance } from "~/services/deposits/deposits.server";
import { decideTestOrder } from "~/platform/payments/test-gateway.server";
import pg from "pg";
import { checkInvariants } from "../../soak/invariants";
import { newLedger } from "../../soak/scenarios";
import { createAffiliate } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { paidPurchaseOf } from "../support/purchases";
import { statusOf } from "../support/http";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

/** A buyer who won a lot at a Phoenix yard, with `deposit` in their ledger. */
async function wonLot(deposit: string | null = "5000.00") {
  const buyer = await createTestUser({ firstName: "Wendy", lastName: "Winner" });
  if (deposit) await recordOpeningBalance(buyer.id, deposit);
  const { lot, purchase } = await paidPurchaseOf(buyer, {
    locationCity: "Phoenix",
    locationState: "AZ",
    yardName: "IAAI Phoenix",
    bodyStyle: "CREW PICKUP",
  });
  return { buyer, lot, purchase };
}

/** The buyer asks for shipping to Long Beach: the unpaid order waiting on its review step. */
async function requestShipping(buyer: User, purchaseId: string) {
  const response = (await requestPage.action(
    args(
      await requestAs(buyer, "/service-orders/request", {
        form: { purchaseId, serviceType: "shipping", delivery: "Long Beach, CA" },
      }),
    ),
  )) as Response;
  expect(response.status).toBe(303);
  const order = (await ServiceOrder.findOne({ where: { purchaseId } }))!;
  expect(response.headers.get("location")).toBe(`/service-orders/${order.id}`);
  return order;
}

/** The review step's form: the buyer presses "from my deposit" or "with the gateway". */
async function payForm(
  user: User,
  orderId: string,
  price: string,
  source: "deposit" | "gateway" = "deposit",
) {
  return orderPage.action(
    args(
      await requestAs(user, `/service-orders/${orderId}`, {
        form: { intent: "pay", price, source },
      }),
      { id: orderId },
    ),
  );
}

async function payJson(user: User, orderId: string, json: unknown) {
  const response = await apiPay.action(
    args(await requestAs(user, `/api/service-orders/${orderId}/pay`, { json }), { id: orderId }),
  );
  return { status: response.status, body: await response.json() };
}

async function moneyState(userId: string) {
  const user = await User.findByPk(userId, { rejectOnEmpty: true });
  return {
    deposit: user.deposit,
    ledger: await ledgerTotal(userId),
    entries: await DepositEntry.count({ where: { userId } }),
    charges: await ServiceOrderCharge.count({ where: { userId } }),
  };
}

describe("Ship it: /service-orders/request?lot=", () => {
  it("preselects the buyer's own won lot and ignores anything else with a notice", async () => {
    const { buyer, lot } = await wonLot();
    const other = await wonLot();
    const load = async (query: string) =>
      (await requestPage.loader(args(await requestAs(buyer, `/service-orders/request${query}`))))
        .data;

    const mine = await load(`?lot=${lot.id}`);
    expect(mine.preselected).toBe(true);
    expect(mine.notice).toBeNull();
    expect(mine.purchases.map((p) => p.lotId)).toEqual([String(lot.id)]);
    expect(mine.purchases[0]).toMatchObject({
      pickupYard: "IAAI Phoenix",
      pickupLocation: "Phoenix, AZ",
    });

    for (const query of [`?lot=${other.lot.id}`, "?lot=abc", "?lot=99999999999999999999"]) {
      const ignored = await load(query);
      expect(ignored.preselected).toBe(false);
      expect(ignored.notice).toBe(TRANSPORT_MESSAGES.lotNotYours);
      expect(ignored.purchases.map((p) => p.lotId)).toEqual([String(lot.id)]);
    }
    const plain = await load("");
    expect(plain.notice).toBeNull();
  });

  it("a request waits for payment: off the board, unclaimable, hidden from others", async () => {
    const { buyer, purchase } = await wonLot();
    const order = await requestShipping(buyer, String(purchase.id));
    expect(order).toMatchObject({ status: "open", paymentStatus: "unpaid", pickupCity: "Phoenix" });

    const provider = await createAffiliate();
    const boardData = await board.loader(args(await requestAs(provider, "/service-orders")));
    expect(boardData.available.map((o) => o.id)).not.toContain(String(order.id));
    const claim = await apiClaim.action(
      args(await requestAs(provider, `/api/service-orders/${order.id}/claim`, { method: "POST" }), {
        id: String(order.id),
      }),
    );
    expect(claim.status).toBe(404);
    await expect(
      orderPage.loader(
        args(await requestAs(provider, `/service-orders/${order.id}`), { id: String(order.id) }),
      ),
    ).rejects.toMatchObject({ status: 404 });

    // the buyer's page is the review step: route, service, price and how it is paid
    const view = await orderPage.loader(
      args(await requestAs(buyer, `/service-orders/${order.id}`), { id: String(order.id) }),
    );
    expect(view.payment).toMatchObject({
      price: order.payout,
      available: "5000.00",
      afterDeposit: (5000 - Number(order.payout)).toFixed(2),
      afterGateway: "5000.00",
    });
    expect(view.order).toMatchObject({
      pickupYard: "IAAI Phoenix",
      deliveryLocation: "Long Beach, CA",
      serviceType: "shipping",
    });
  });
});

describe("See price: the quote before the request (record 3323)", () => {
  it("answers the price the order would get, writes nothing, and refuses another's purchase", async () => {
    const { buyer, purchase } = await wonLot();
    const form = {
      purchaseId: String(purchase.id),
      serviceType: "shipping",
      delivery: "Long Beach, CA",
      intent: "quote",
    };
    const quoted = (await requestPage.action(
      args(await requestAs(buyer, "/service-orders/request", { form })),
    )) as { data: { quote?: { price: string; miles: number; from: string; to: string } } };
    expect(statusOf(quoted)).toBe(200);
    expect(quoted.data.quote).toMatchObject({
      from: "Phoenix, AZ",
      to: "Long Beach, CA",
      serviceType: "shipping",
    });
    expect(quoted.data.quote!.miles).toBeGreaterThan(300);
    expect(await ServiceOrder.count({ where: { purchaseId: purchase.id } })).toBe(0);

    // the order asked for next costs what was quoted
    const order = await requestShipping(buyer, String(purchase.id));
    expect(order.payout).toBe(quoted.data.quote!.price);

    const stranger = await createTestUser();
    const refused = (await requestPage.action(
      args(await requestAs(stranger, "/service-orders/request", { form })),
    )) as { data: { formError?: string; quote?: unknown } };
    expect(statusOf(refused)).toBe(404);
    expect(refused.data.quote).toBeUndefined();
    expect(refused.data.formError).toBe("Purchase not found");
  });

  it("an unknown destination gets the same message as the request, with no price", async () => {
    const { buyer, purchase } = await wonLot();
    const quoted = (await requestPage.action(
      args(
        await requestAs(buyer, "/service-orders/request", {
          form: {
            purchaseId: String(purchase.id),
            serviceType: "shipping",
            delivery: "00000",
            intent: "quote",
          },
        }),
      ),
    )) as { data: { formError?: string; quote?: unknown; fieldErrors: Record<string, string[]> } };
    expect(statusOf(quoted)).toBe(400);
    expect(quoted.data.quote).toBeUndefined();
  });
});

describe("paying from the deposit", () => {
  it("10 confirms at once charge once; deposit = ledger; the job reaches the board", async () => {
    const { buyer, purchase } = await wonLot();
    const order = await requestShipping(buyer, String(purchase.id));
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        payJson(buyer, String(order.id), { price: order.payout, source: "deposit" }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    expect(results.find((r) => r.status === 200)!.body).toMatchObject({
      paid: true,
      source: "deposit",
    });
    for (const r of results.filter((r) => r.status === 409))
      expect(r.body.error).toBe(TRANSPORT_MESSAGES.alreadyPaid);

    const after = await moneyState(buyer.id);
    const priceCents = Math.round(Number(order.payout) * 100);
    expect(Math.round(Number(after.deposit) * 100)).toBe(500_000 - priceCents);
    expect(after.ledger).toBe(after.deposit);
    expect(after.charges).toBe(1);
    const [charge] = await ServiceOrderCharge.findAll({ where: { serviceOrderId: order.id } });
    const entry = await DepositEntry.findByPk(charge.depositEntryId!, { rejectOnEmpty: true });
    expect(charge).toMatchObject({ source: "deposit", amount: order.payout });
    expect(entry).toMatchObject({ kind: "applied", amount: `-${order.payout}` });
    await order.reload();
    expect(order.paymentStatus).toBe("paid");
    expect(order.paidAt).toBeInstanceOf(Date);

    // paid: it is on the board and can be claimed
    const provider = await createAffiliate();
    await expect(runOrderStep(provider.id, String(order.id), "claim")).resolves.toMatchObject({
      status: "claimed",
    });
  });

  it("a tampered price, someone else's order, bad input, a second confirm: 4xx, nothing written", async () => {
    const { buyer, purchase } = await wonLot();
    const order = await requestShipping(buyer, String(purchase.id));
    const id = String(order.id);
    const before = await moneyState(buyer.id);
    const stranger = await createTestUser();
    await recordOpeningBalance(stranger.id, "5000.00");
    const strangerBefore = await moneyState(stranger.id);

    expect(statusOf(await payForm(buyer, id, "1.00"))).toBe(409);
    expect((await payJson(buyer, id, { price: "1.00" })).body.error).toBe(
      TRANSPORT_MESSAGES.priceChanged,
    );
    expect(statusOf(await payForm(buyer, id, ""))).toBe(400);
    expect((await payJson(buyer, id, { price: -5 })).status).toBe(400);
    expect((await payJson(buyer, id, "x".repeat(10))).status).toBe(400);
    expect((await payJson(stranger, id, { price: order.payout })).status).toBe(404);
    expect(statusOf(await payForm(stranger, id, order.payout))).toBe(404);
    expect((await payJson(buyer, "nope", { price: order.payout })).status).toBe(404);
    expect(await moneyState(buyer.id)).toEqual(before);
    expect(await moneyState(stranger.id)).toEqual(strangerBefore);
    expect((await order.reload()).paymentStatus).toBe("unpaid");

    const paid = (await payForm(buyer, id, order.payout)) as Response;
    expect(paid.status).toBe(303);
    const toast = await toastCookie.parse(paid.headers.get("set-cookie"));
    expect(toast).toMatchObject({ title: "Transport Paid", type: "success" });
    const afterPay = await moneyState(buyer.id);
    expect(statusOf(await payForm(buyer, id, order.payout))).toBe(409);
    expect(await moneyState(buyer.id)).toEqual(afterPay);

    // an order with nothing to pay (made by staff) cannot be "paid" either
    const staffOrder = await ServiceOrder.create({
      serviceType: "shipping",
      vehicleLabel: "Staff job",
      pickupCity: "Dallas",
      pickupState: "TX",
      deliveryCity: "Houston",
      deliveryState: "TX",
      distanceMiles: 252,
      payout: "450.00",
      requestedBy: buyer.id,
      createdBy: null,
    });
    expect(
      (await payJson(buyer, String(staffOrder.id), { price: "450.00", source: "deposit" })).status,
    ).toBe(409);
    expect(await moneyState(buyer.id)).toEqual(afterPay);
  });
});

describe("paying through the gateway", () => {
  it("a deposit that does not cover it goes to checkout; a failure leaves it unpaid; the return settles once", async () => {
    const { buyer, purchase } = await wonLot("100.00");
    const order = await requestShipping(buyer, String(purchase.id));
    const id = String(order.id);
    const before = await moneyState(buyer.id);

    // the first checkout is abandoned; the second replaces it
    const first = (await payForm(buyer, id, order.payout, "gateway")) as Response;
    expect(first.status).toBe(302);
    const firstToken = new URL(first.headers.get("location")!).searchParams.get("token")!;
    const second = (await payForm(buyer, id, order.payout, "gateway")) as Response;
    const approval = new URL(second.headers.get("location")!);
    expect(approval.pathname).toBe("/payments/test-checkout");
    const token = approval.searchParams.get("token")!;
    expect((await order.reload()).paymentStatus).toBe("unpaid");

    const back = async (user: User, t: string) =>
      (await paymentReturn.loader(
        args(await requestAs(user, `/service-orders/payment/return?token=${t}`)),
      )) as Response;

    // not approved at the provider: the capture fails, nothing changes
    const failed = await back(buyer, token);
    expect(failed.status).toBe(302);
    expect(await toastCookie.parse(failed.headers.get("set-cookie"))).toMatchObject({
      title: "Payment Error",
      type: "error",
    });
    expect((await order.reload()).paymentStatus).toBe("unpaid");
    expect(await moneyState(buyer.id)).toEqual(before);

    // the replaced checkout was closed: it cannot be approved, and is never captured
    expect(await decideTestOrder(firstToken, true)).toBeNull();
    const stale = await back(buyer, firstToken);
    expect(await toastCookie.parse(stale.headers.get("set-cookie"))).toMatchObject({
      title: "Payment Replaced",
    });
    const staleOrder = await PaymentOrder.findOne({ where: { providerOrderId: firstToken } });
    expect(staleOrder?.status).not.toBe("captured");

    // someone else coming back with the buyer's token finds nothing
    const stranger = await createTestUser();
    const theirs = await back(stranger, token);
    expect(await toastCookie.parse(theirs.headers.get("set-cookie"))).toMatchObject({
      type: "error",
    });

    await decideTestOrder(token, true);
    const returns = await Promise.all(Array.from({ length: 5 }, () => back(buyer, token)));
    for (const r of returns) expect(r.headers.get("location")).toBe(`/service-orders/${id}`);
    await order.reload();
    expect(order.paymentStatus).toBe("paid");
    const charges = await ServiceOrderCharge.findAll({ where: { serviceOrderId: id } });
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ source: "gateway", amount: order.payout });
    const captured = await PaymentOrder.findByPk(charges[0].paymentOrderId!);
    expect(captured).toMatchObject({
      status: "captured",
      purpose: "service_order",
      capturedAmount: order.payout,
    });
    // the deposit was never touched
    const after = await moneyState(buyer.id);
    expect(after).toEqual({ ...before, charges: 1 });
    expect(after.ledger).toBe(after.deposit);
  });

  it("a cancelled checkout charges nothing and goes back to the review step", async () => {
    const { buyer, purchase } = await wonLot(null);
    const order = await requestShipping(buyer, String(purchase.id));
    const started = (await payForm(buyer, String(order.id), order.payout, "gateway")) as Response;
    const token = new URL(started.headers.get("location")!).searchParams.get("token")!;
    await decideTestOrder(token, false);
    const cancelled = (await paymentCancel.loader(
      args(await requestAs(buyer, `/service-orders/payment/cancel?token=${token}`)),
    )) as Response;
    expect(cancelled.headers.get("location")).toBe(`/service-orders/${order.id}`);
    expect((await order.reload()).paymentStatus).toBe("unpaid");
    expect(await ServiceOrderCharge.count({ where: { serviceOrderId: order.id } })).toBe(0);
  });
});

describe("provider earnings", () => {
  it("10 completes at once credit the payout net of the fee once; the buyer is told; the statement adds up", async () => {
    const { buyer, lot, purchase } = await wonLot();
    const order = await requestShipping(buyer, String(purchase.id));
    await payJson(buyer, String(order.id), { price: order.payout, source: "deposit" });
    const provider = await createAffiliate();
    const id = String(order.id);
    await runOrderStep(provider.id, id, "claim");
    expect(await listOrdersForLot(String(lot.id), buyer.id)).toMatchObject([
      { id, status: "claimed", paymentStatus: "paid", progress: 25 },
    ]);
    await runOrderStep(provider.id, id, "start");

    const responses = await Promise.all(
      Array.from({ length: 10 }, async () =>
        apiComplete.action(
          args(
            await requestAs(provider, `/api/service-orders/${id}/complete`, { method: "POST" }),
            {
              id,
            },
          ),
        ),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    // replayed later: still once
    await expect(runOrderStep(provider.id, id, "complete")).rejects.toMatchObject({ status: 409 });

    const earnings = await ProviderEarning.findAll({ where: { serviceOrderId: id } });
    expect(earnings).toHaveLength(1);
    const split = splitPayout(order.payout, 10);
    expect(earnings[0]).toMatchObject({
      providerId: provider.id,
      gross: order.payout,
      platformFee: (split.feeCents / 100).toFixed(2),
      net: (split.netCents / 100).toFixed(2),
      feeBasisPoints: 1000,
    });

    const notes = await Notification.findAll({
      where: { userId: buyer.id },
      order: [["id", "ASC"]],
    });
    expect(notes.map((n) => [n.kind, n.title])).toEqual(
      expect.arrayContaining([
        ["service_order_claimed", "Transport claimed"],
        ["service_order_completed", "Delivered"],
      ]),
    );
    expect(notes.find((n) => n.kind === "service_order_completed")?.link).toBe(
      `/service-orders/${id}`,
    );
    expect(await listOrdersForLot(String(lot.id), buyer.id)).toMatchObject([
      { id, status: "completed", progress: 100 },
    ]);
    expect(await listOrdersForLot(String(lot.id), provider.id)).toEqual([]);

    const statement = await earningsPage.loader(
      args(await requestAs(provider, "/service-orders/earnings")),
    );
    const body = (
      statement as unknown as {
        data: Awaited<
          ReturnType<typeof import("~/services/affiliates/earnings.server").earningsStatement>
        >;
      }
    ).data;
    expect(body.totals).toEqual({
      gross: order.payout,
      platformFee: (split.feeCents / 100).toFixed(2),
      net: (split.netCents / 100).toFixed(2),
      jobs: 1,
    });
    expect(body.lines).toMatchObject([{ orderId: id, net: (split.netCents / 100).toFixed(2) }]);

    // the soak's invariants for earnings and charges hold here, and catch a broken credit
    const soakChecks = async () => {
      const db = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
      try {
        const checks = await checkInvariants(db, newLedger(), new Date(), { expectSold: false });
        return checks.filter((c) => /provider earnings|transport charges/.test(c.name));
      } finally {
        await db.end();
      }
    };
    expect((await soakChecks()).map((c) => c.ok)).toEqual([true, true]);
    await sequelize.query(
      "UPDATE provider_earnings SET provider_id = :p WHERE service_order_id = :o",
      {
        replacements: { p: buyer.id, o: id },
      },
    );
    expect((await soakChecks()).map((c) => c.ok)).toEqual([false, true]);
    await sequelize.query(
      "UPDATE provider_earnings SET provider_id = :p WHERE service_order_id = :o",
      {
        replacements: { p: provider.id, o: id },
      },
    );

    // the database holds one credit per order whatever the caller does
    await expect(
      sequelize.query(
        `INSERT INTO provider_earnings (provider_id, service_order_id, gross, platform_fee, net, fee_basis_points)
         VALUES (:p, :o, 10, 1, 9, 1000)`,
        { replacements: { p: provider.id, o: id }, type: QueryTypes.INSERT },
      ),
    ).rejects.toThrow();
    // and an unpaid buyer's job cannot be claimed even by hand
    const other = await createAffiliate();
    await expect(
      sequelize.query(
        `INSERT INTO service_orders (service_type, vehicle_label, pickup_city, pickup_state,
           delivery_city, delivery_state, payout, payment_status)
         VALUES ('shipping', 'x', 'Dallas', 'TX', 'Houston', 'TX', 100, 'unpaid');
         UPDATE service_orders SET status = 'claimed', claimed_by = :p, claimed_at = now()
          WHERE payment_status = 'unpaid' AND vehicle_label = 'x'`,
        { replacements: { p: other.id } },
      ),
    ).rejects.toThrow();
  });
});

describe("storage at the yard", () => {
  it("runs from the end of the free days until a transport job picks the vehicle up", async () => {
    const { purchaseView } = await import("~/services/purchases/invoices.server");
    const { loadTerms } = await import("~/services/purchases/schedules.server");
    const { storageStartsAt } = await import("~/services/purchases/fees");
    const DAY = 24 * 60 * 60 * 1000;
    const terms = await loadTerms();
    const { buyer, purchase } = await wonLot();
    // paid a while ago at the Phoenix yard; the free days end at its close on a business day
    const paidAt = new Date(Date.now() - (terms.storageFreeDays + 12) * DAY);
    await purchase.update({ paidAt });
    const freeUntil = storageStartsAt(terms, paidAt, "AZ");
    const clock = fixedClock(new Date(freeUntil.getTime() + 6 * DAY + 1000));
    setClock(clock);
    try {
      const waiting = await purchaseView(buyer.id, String(purchase.id));
      expect(waiting.storage!.startsAt).toBe(freeUntil.toISOString());
      expect(waiting.storage!.pickedUpAt).toBeNull();
      // six days and a moment past the free ones: each started day counts, so seven
      expect(waiting.storage!.owedCents).toBe(7 * terms.storagePerDayCents);
    } finally {
      resetClock();
    }

    // a carrier claimed the job and picked the vehicle up two days after storage began
    const order = await requestShipping(buyer, String(purchase.id));
    const carrier = await createAffiliate();
    const pickedUp = new Date(freeUntil.getTime() + 2 * DAY);
    await order.update({
      paymentStatus: "paid",
      paidAt: new Date(pickedUp.getTime() - 2 * DAY),
      status: "in_progress",
      claimedBy: carrier.id,
      claimedAt: new Date(pickedUp.getTime() - DAY),
      startedAt: pickedUp,
    });
    const collected = await purchaseView(buyer.id, String(purchase.id));
    expect(collected.storage!.pickedUpAt).toBe(pickedUp.toISOString());
    expect(collected.storage!.owedCents).toBe(2 * terms.storagePerDayCents);
  });
});
