// Ownership before form checks (docs/decisions/3202): a call or form action that names someone
// else's object by id answers 404 whatever its body says — a broken body included — so nobody
// learns from a 400 that the object exists, and nothing is written.
import { describe, expect, it } from "vitest";
import { Purchase } from "~/models/auction.server";
import { ServiceOrderCharge } from "~/models/affiliate.server";
import { Listing } from "~/models/listing.server";
import { User } from "~/models/user.server";
import * as apiPay from "~/routes/api.service-orders.$id.pay";
import * as orderPage from "~/routes/service-orders.$id";
import * as purchasePage from "~/routes/purchases.$id";
import * as vehiclePage from "~/routes/vehicle.$id/route";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";
import { arrangeShippingOrder, arrangeWonPurchase, createBuyer } from "../support/purchases";
import { statusOf } from "../support/http";
import { withTestGateway } from "../support/gateway";

withTestGateway();

const args = (request: Request, params: Record<string, string>) => ({
  request,
  params,
  context: {},
});
/** The answer of an action that may throw its Response (a 404 page). */
async function answer(run: () => Promise<unknown>) {
  try {
    return statusOf(await run());
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

async function transportOrder() {
  return (await arrangeShippingOrder("5000.00", { verified: true })).order;
}

describe("someone else's transport order", () => {
  it("POST /api/service-orders/:id/pay: 404 before the body is looked at, nothing charged", async () => {
    const order = await transportOrder();
    const id = String(order.id);
    const stranger = await createTestUser({ verified: true });
    await recordOpeningBalance(stranger.id, "5000.00");
    for (const json of [{}, { price: "abc" }, { price: order.payout, source: "deposit" }]) {
      const response = await apiPay.action(
        args(await requestAs(stranger, `/api/service-orders/${id}/pay`, { json }), { id }),
      );
      expect(response.status, JSON.stringify(json)).toBe(404);
      expect(await response.json()).toMatchObject({ error: "Service order not found" });
    }
    // an order that does not exist answers the same
    const missing = await apiPay.action(
      args(await requestAs(stranger, "/api/service-orders/999999/pay", { json: {} }), {
        id: "999999",
      }),
    );
    expect(missing.status).toBe(404);
    // the owner's broken body is still a 400 naming the problem
    const buyer = await User.findByPk(order.requestedBy!, { rejectOnEmpty: true });
    const owner = await apiPay.action(
      args(await requestAs(buyer, `/api/service-orders/${id}/pay`, { json: {} }), { id }),
    );
    expect(owner.status).toBe(400);
    expect((await order.reload()).paymentStatus).toBe("unpaid");
    expect(await ServiceOrderCharge.count({ where: { serviceOrderId: id } })).toBe(0);
  });

  it("the no-JS pay form: 404 for someone else's order, whatever the form says", async () => {
    const order = await transportOrder();
    const id = String(order.id);
    const stranger = await createTestUser({ verified: true });
    const forms: Array<Record<string, string>> = [
      { intent: "pay" },
      { intent: "pay", price: order.payout, source: "deposit" },
    ];
    for (const form of forms) {
      const status = await answer(async () =>
        orderPage.action(
          args(await requestAs(stranger, `/service-orders/${id}`, { form }), { id }),
        ),
      );
      expect(status, JSON.stringify(form)).toBe(404);
    }
    expect((await order.reload()).paymentStatus).toBe("unpaid");
  });
});

describe("someone else's invoice", () => {
  it("the pay form answers 404, not 'the payment form was incomplete'", async () => {
    const buyer = await createBuyer("1500.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1500.00");
    const stranger = await createTestUser({ verified: true });
    const forms: Array<Record<string, string>> = [
      { intent: "pay" },
      { intent: "pay", amount: "0.00" },
    ];
    for (const form of forms) {
      const status = await answer(async () =>
        purchasePage.action(
          args(await requestAs(stranger, `/purchases/${purchaseId}`, { form }), { id: purchaseId }),
        ),
      );
      expect(status, JSON.stringify(form)).toBe(404);
    }
    expect((await Purchase.findByPk(purchaseId, { rejectOnEmpty: true })).status).toBe("pending");
  });
});

describe("someone else's listing", () => {
  it("an edit with a broken form answers 404, not the form's 400; the listing is unchanged", async () => {
    const seller = await createTestUser({ verified: true });
    const listing = await createTestListing(seller);
    const id = String(listing.id);
    const stranger = await createTestUser({ verified: true });
    const status = await answer(async () =>
      vehiclePage.action(
        args(
          await requestAs(stranger, `/vehicle/${id}`, { form: { intent: "update", title: "" } }),
          { id },
        ),
      ),
    );
    expect(status).toBe(404);
    expect((await Listing.findByPk(id, { rejectOnEmpty: true })).title).toBe(listing.title);
  });
});
