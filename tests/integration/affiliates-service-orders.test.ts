import { describe, expect, it } from "vitest";
import { ServiceOrder } from "~/models/affiliate.server";
import { Purchase } from "~/models/auction.server";
import { Notification } from "~/models/notification.server";
import * as adminNew from "~/routes/admin_.service-orders.new";
import * as apiMine from "~/routes/api.affiliates.service-orders";
import * as apiAdminCreate from "~/routes/api.admin.service-orders";
import * as apiOpen from "~/routes/api.service-orders";
import * as apiClaim from "~/routes/api.service-orders.$id.claim";
import * as apiComplete from "~/routes/api.service-orders.$id.complete";
import * as apiStart from "~/routes/api.service-orders.$id.start";
import * as board from "~/routes/service-orders._index/route";
import * as orderPage from "~/routes/service-orders.$id";
import * as requestPage from "~/routes/service-orders.request";
import { CLAIM_FAILED } from "~/services/affiliates/messages";
import { toastCookie } from "~/http/cookies.server";
import type { User } from "~/models/user.server";
import { createAdmin, createAffiliate, createTestOrder } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { confirmTransportPayment } from "~/services/affiliates/transport-payments.server";

const STEPS = { claim: apiClaim, start: apiStart, complete: apiComplete };

async function step(user: User, id: string, name: keyof typeof STEPS) {
  const request = await requestAs(user, `/api/service-orders/${id}/${name}`, { method: "POST" });
  const response = await STEPS[name].action({ request, params: { id }, context: {} });
  return { status: response.status, body: await response.json() };
}

async function formStep(user: User, id: string, intent: string, redirectTo = "/service-orders") {
  const request = await requestAs(user, `/service-orders/${id}`, { form: { intent, redirectTo } });
  const response = (await orderPage.action({ request, params: { id }, context: {} })) as Response;
  const header = response.headers.get("set-cookie") ?? "";
  return { response, toast: await toastCookie.parse(header) };
}

describe("claiming", () => {
  it("20 approved affiliates claim one order at once: exactly one wins", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    const affiliates = await Promise.all(Array.from({ length: 20 }, () => createAffiliate()));
    const requests = await Promise.all(
      affiliates.map((user) =>
        requestAs(user, `/api/service-orders/${order.id}/claim`, { method: "POST" }),
      ),
    );
    const responses = await Promise.all(
      requests.map((request) =>
        apiClaim.action({ request, params: { id: String(order.id) }, context: {} }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const losers = await Promise.all(
      responses.filter((r) => r.status === 409).map((r) => r.json()),
    );
    for (const body of losers) expect(body.error).toBe(CLAIM_FAILED);

    const winnerIndex = statuses.indexOf(200);
    await order.reload();
    expect(order).toMatchObject({ status: "claimed", claimedBy: affiliates[winnerIndex].id });
    expect(order.claimedAt).toBeInstanceOf(Date);
  });

  it("a pending affiliate or a plain user cannot claim, by JSON or by form", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    const id = String(order.id);
    for (const user of [
      await createAffiliate("pending"),
      await createAffiliate("rejected"),
      await createTestUser(),
    ]) {
      const json = await step(user, id, "claim");
      expect(json.status).toBe(403);
      expect(json.body.error).toBe(
        "Affiliate Approval Required: You need to be an approved affiliate to claim service orders.",
      );
      const { response, toast } = await formStep(user, id, "claim");
      expect(response.status).toBe(303);
      expect(toast).toMatchObject({
        title: "Affiliate Approval Required",
        description: "You need to be an approved affiliate to claim service orders.",
      });
    }
    await order.reload();
    expect(order.status).toBe("open");
  });

  it("the form path claims with the spec's toasts and goes back to the board", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    const [first, second] = [await createAffiliate(), await createAffiliate()];
    const won = await formStep(first, String(order.id), "claim", "/service-orders?pickupState=TX");
    expect(won.response.headers.get("location")).toBe("/service-orders?pickupState=TX");
    expect(won.toast).toEqual({
      title: "Order Claimed",
      description: "You have successfully claimed this service order.",
      type: "success",
    });
    const lost = await formStep(second, String(order.id), "claim", "https://evil.test/");
    // The order is no longer theirs to open (claimed by another): back to the board.
    expect(lost.response.headers.get("location")).toBe("/service-orders");
    expect(lost.toast).toMatchObject({
      title: "Failed to Claim",
      description: "Failed to claim service order. It may have been claimed by another provider.",
    });
  });

  it("an unknown order is 404", async () => {
    const user = await createAffiliate();
    expect((await step(user, "999999", "claim")).status).toBe(404);
    expect((await step(user, "abc", "claim")).status).toBe(404);
  });
});

describe("transitions", () => {
  it("go open → claimed → in_progress → completed, only forward, only by the claimer", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    const id = String(order.id);
    const claimer = await createAffiliate();
    const other = await createAffiliate();

    expect((await step(claimer, id, "start")).status).toBe(403); // not claimed by anyone yet
    expect((await step(claimer, id, "complete")).status).toBe(403);
    expect((await step(claimer, id, "claim")).status).toBe(200);
    expect((await step(claimer, id, "complete")).status).toBe(409); // cannot skip a step
    expect((await step(other, id, "start")).status).toBe(403);
    expect((await step(admin, id, "start")).status).toBe(403);

    const started = await step(claimer, id, "start");
    expect(started.status).toBe(200);
    expect(started.body.order).toMatchObject({ status: "in_progress", progress: 75 });
    expect((await step(claimer, id, "start")).status).toBe(409); // not twice
    expect((await step(claimer, id, "claim")).status).toBe(409); // not back
    expect((await step(other, id, "complete")).status).toBe(403);

    const done = await step(claimer, id, "complete");
    expect(done.body.order).toMatchObject({ status: "completed", progress: 100 });
    for (const name of ["claim", "start", "complete"] as const) {
      const again = await step(claimer, id, name);
      expect(again.status).toBe(409);
    }
    expect((await step(claimer, id, "complete")).body.error).toMatch(/completed; it cannot change/);
    await order.reload();
    expect(order.status).toBe("completed");
    expect(order.startedAt!.getTime()).toBeGreaterThanOrEqual(order.claimedAt!.getTime());
    expect(order.completedAt!.getTime()).toBeGreaterThanOrEqual(order.startedAt!.getTime());
  });

  it("the database itself refuses a row that skips a step", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    await expect(
      ServiceOrder.update({ status: "completed" }, { where: { id: order.id } }),
    ).rejects.toThrow();
    await expect(
      ServiceOrder.update({ payout: "-1.00" }, { where: { id: order.id } }),
    ).rejects.toThrow();
  });

  it("the form path starts and completes too", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    const id = String(order.id);
    const claimer = await createAffiliate();
    await formStep(claimer, id, "claim");
    expect((await formStep(claimer, id, "start")).toast).toMatchObject({
      title: "Service Started",
    });
    expect((await formStep(claimer, id, "complete")).toast).toMatchObject({
      title: "Order Completed",
    });
    await order.reload();
    expect(order.status).toBe("completed");
  });
});

describe("the board and the lists", () => {
  it("filters on the server and shows the payout net of the platform fee", async () => {
    const admin = await createAdmin();
    const viewer = await createAffiliate();
    const tag = `Filtertest${Date.now()}`;
    await createTestOrder(admin, { vehicleLabel: `${tag} sedan`, payout: "450.00" });
    await createTestOrder(admin, {
      vehicleLabel: `${tag} truck`,
      vehicleType: "truck",
      pickup: "Phoenix, AZ",
      delivery: "Long Beach, CA",
    });
    await createTestOrder(admin, {
      vehicleLabel: `${tag} suv`,
      vehicleType: "suv",
      serviceType: "export",
      pickup: "Miami, FL",
      delivery: undefined,
      exportPort: "Jacksonville, FL",
      destinationCountry: "Ghana",
    });
    const list = async (query: string) =>
      (
        await board.loader({
          request: await requestAs(viewer, `/service-orders?q=${tag}&${query}`),
          params: {},
          context: {},
        })
      ).available.map((o) => o.vehicleLabel.replace(`${tag} `, ""));

    expect((await list("")).sort()).toEqual(["sedan", "suv", "truck"]);
    expect(await list("serviceType=export")).toEqual(["suv"]);
    expect((await list("destination=domestic")).sort()).toEqual(["sedan", "truck"]);
    expect(await list("destination=international&serviceType=shipping")).toEqual([]);
    expect(await list("pickupState=AZ")).toEqual(["truck"]);
    expect(await list("vehicleType=sedan&pickupState=TX")).toEqual(["sedan"]);
    expect((await list("vehicleType=bogus&serviceType=all")).length).toBe(3);

    const api = await apiOpen.loader({
      request: await requestAs(viewer, `/api/service-orders?q=${tag}&serviceType=shipping`),
      params: {},
      context: {},
    });
    const orders = await api.json();
    const sedan = orders.find((o: { vehicleLabel: string }) => o.vehicleLabel.endsWith("sedan"));
    expect(sedan).toMatchObject({
      serviceType: "shipping",
      pickupLocation: "Dallas, TX",
      deliveryLocation: "Houston, TX",
      estimatedPayout: "450.00",
      platformFee: "45.00",
      netPayout: "405.00",
      status: "open",
      progress: 0,
    });
    expect(Math.abs(sedan.distanceMiles - 240)).toBeLessThan(15);
    expect(sedan).not.toHaveProperty("requester");
  });

  it("My Orders and its call are only for approved affiliates", async () => {
    const admin = await createAdmin();
    const affiliate = await createAffiliate();
    const pending = await createAffiliate("pending");
    const order = await createTestOrder(admin);
    await step(affiliate, String(order.id), "claim");

    const mine = await apiMine.loader({
      request: await requestAs(affiliate, "/api/affiliates/service-orders"),
      params: {},
      context: {},
    });
    expect((await mine.json()).map((o: { id: string }) => o.id)).toEqual([String(order.id)]);
    const refused = await apiMine.loader({
      request: await requestAs(pending, "/api/affiliates/service-orders"),
      params: {},
      context: {},
    });
    expect(refused.status).toBe(403);

    const page = await board.loader({
      request: await requestAs(affiliate, "/service-orders?tab=mine"),
      params: {},
      context: {},
    });
    expect(page).toMatchObject({ approved: true, myCount: 1, provider: { state: "approved" } });
    expect(page.mine[0]).toMatchObject({ id: String(order.id), claimedByMe: true, progress: 25 });
    const pendingPage = await board.loader({
      request: await requestAs(pending, "/service-orders?tab=mine"),
      params: {},
      context: {},
    });
    expect(pendingPage).toMatchObject({
      approved: false,
      mine: [],
      provider: { state: "pending", canClaim: false },
    });
  });
});

describe("orders from purchases and from admins", () => {
  it("a buyer asks for shipping from a won lot; only the claimer and admins see the buyer", async () => {
    const buyer = await createTestUser({ firstName: "Wendy", lastName: "Winner" });
    const lot = await createTestLot({
      locationCity: "Phoenix",
      locationState: "AZ",
      yardName: "IAAI Phoenix",
      bodyStyle: "CREW PICKUP",
      status: "sold",
      highBidderId: buyer.id,
      highMax: "5000.00",
      currentBid: "5000.00",
      closedAt: new Date(),
    });
    const purchase = await Purchase.create({
      lotId: lot.id,
      userId: buyer.id,
      amount: "5000.00",
      status: "paid",
      paidAt: new Date(),
    });
    const stranger = await createTestUser();

    const forStranger = await requestPage.action({
      request: await requestAs(stranger, "/service-orders/request", {
        form: {
          purchaseId: String(purchase.id),
          serviceType: "shipping",
          delivery: "Long Beach, CA",
        },
      }),
      params: {},
      context: {},
    });
    expect((forStranger as unknown as { init: { status: number } }).init.status).toBe(404);

    const invalid = await requestPage.action({
      request: await requestAs(buyer, "/service-orders/request", {
        form: { purchaseId: String(purchase.id), serviceType: "shipping", delivery: "Atlantis" },
      }),
      params: {},
      context: {},
    });
    expect((invalid as unknown as { init: { status: number } }).init.status).toBe(400);

    const created = (await requestPage.action({
      request: await requestAs(buyer, "/service-orders/request", {
        form: {
          purchaseId: String(purchase.id),
          serviceType: "shipping",
          delivery: "Long Beach, CA",
        },
      }),
      params: {},
      context: {},
    })) as Response;
    expect(created.status).toBe(303);
    const order = (await ServiceOrder.findOne({ where: { purchaseId: purchase.id } }))!;
    expect(order).toMatchObject({
      lotId: lot.id,
      requestedBy: buyer.id,
      pickupCity: "Phoenix",
      pickupState: "AZ",
      pickupYard: "IAAI Phoenix",
      vehicleType: "truck",
      status: "open",
    });
    expect(Math.abs(order.distanceMiles! - 380) / 380).toBeLessThan(0.06);

    const twice = await requestPage.action({
      request: await requestAs(buyer, "/service-orders/request", {
        form: { purchaseId: String(purchase.id), serviceType: "shipping", delivery: "Tucson, AZ" },
      }),
      params: {},
      context: {},
    });
    expect((twice as unknown as { init: { status: number } }).init.status).toBe(409);

    // a buyer's job reaches the board once paid (docs/decisions/1751); here from the deposit
    expect(order.paymentStatus).toBe("unpaid");
    await recordOpeningBalance(buyer.id, "10000.00");
    await confirmTransportPayment(buyer.id, String(order.id), order.payout, "deposit");

    const claimer = await createAffiliate();
    const onlooker = await createAffiliate();
    const admin = await createAdmin();
    const view = async (user: User) =>
      orderPage.loader({
        request: await requestAs(user, `/service-orders/${order.id}`),
        params: { id: String(order.id) },
        context: {},
      });
    expect((await view(onlooker)).details).toBeNull();
    await step(claimer, String(order.id), "claim");
    // the carrier gets the buyer's first name, never the e-mail (record 3530)
    expect((await view(claimer)).details?.requester).toEqual({ name: "Wendy", email: null });
    expect((await view(admin)).details?.requester?.email).toBe(buyer.email);
    // Once claimed, an onlooker cannot open the order at all.
    await expect(view(onlooker)).rejects.toMatchObject({ status: 404 });
    const notes = await Notification.findAll({ where: { userId: buyer.id } });
    expect(notes.map((n) => n.kind)).toContain("service_order_claimed");
  });

  it("a buyer asks for export by JSON; a cancelled purchase or a stranger cannot", async () => {
    const buyer = await createTestUser();
    const lot = await createTestLot({
      locationCity: "Atlanta",
      locationState: "GA",
      status: "sold",
      highBidderId: buyer.id,
      highMax: "3000.00",
      currentBid: "3000.00",
      closedAt: new Date(),
    });
    const purchase = await Purchase.create({
      lotId: lot.id,
      userId: buyer.id,
      amount: "3000.00",
      status: "paid",
      paidAt: new Date(),
    });
    const post = async (user: User, json: Record<string, unknown>) =>
      apiOpen.action({
        request: await requestAs(user, "/api/service-orders", { json }),
        params: {},
        context: {},
      });
    const body = {
      purchaseId: Number(purchase.id),
      serviceType: "export",
      exportPort: "Savannah, GA",
      destinationCountry: "Ghana",
    };
    expect((await post(await createTestUser(), body)).status).toBe(404);
    expect((await post(buyer, { ...body, destinationCountry: "Atlantis" })).status).toBe(400);
    const created = await post(buyer, body);
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({
      serviceType: "export",
      pickupLocation: "Atlanta, GA",
      deliveryLocation: "Savannah, GA",
      exportPort: "Savannah, GA",
      destinationCountry: "Ghana",
      distanceMiles: null,
      lotId: String(lot.id),
    });
    // an unpaid purchase (it may yet be defaulted and relisted) or a cancelled one: 409, no order
    const shipping = { ...body, serviceType: "shipping", delivery: "Miami, FL" };
    for (const status of ["pending", "cancelled"] as const) {
      await purchase.update({ status, paidAt: null });
      const refused = await post(buyer, shipping);
      expect(refused.status).toBe(409);
      expect(await ServiceOrder.count({ where: { purchaseId: purchase.id } })).toBe(1);
    }
  });

  it("an admin creates orders by form and by JSON; others cannot", async () => {
    const admin = await createAdmin();
    const lot = await createTestLot({ locationCity: "Houston", locationState: "TX" });
    const bad = await adminNew.action({
      request: await requestAs(admin, "/admin/service-orders/new", {
        form: { serviceType: "export", pickup: "Dallas, TX", vehicleLabel: "Car" },
      }),
      params: {},
      context: {},
    });
    const badResult = bad as unknown as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(badResult.init.status).toBe(400);
    expect(Object.keys(badResult.data.error).sort()).toEqual(["destinationCountry", "exportPort"]);

    const created = (await adminNew.action({
      request: await requestAs(admin, "/admin/service-orders/new", {
        form: {
          serviceType: "export",
          lotId: String(lot.id),
          exportPort: "Houston, TX",
          destinationCountry: "Nigeria",
          payout: "650",
        },
      }),
      params: {},
      context: {},
    })) as Response;
    expect(created.status).toBe(303);
    const order = (await ServiceOrder.findOne({ where: { lotId: lot.id } }))!;
    expect(order).toMatchObject({
      serviceType: "export",
      vehicleLabel: "2018 Ford F-150",
      pickupCity: "Houston",
      exportPort: "Houston",
      destinationCountry: "Nigeria",
      distanceMiles: null,
      payout: "650.00",
    });

    const json = await apiAdminCreate.action({
      request: await requestAs(admin, "/api/admin/service-orders", {
        json: {
          serviceType: "shipping",
          vehicleLabel: "2020 Honda Civic",
          pickup: "Miami, FL",
          delivery: "New York, NY",
        },
      }),
      params: {},
      context: {},
    });
    expect(json.status).toBe(201);
    const body = await json.json();
    expect(Math.abs(body.distanceMiles - 1280) / 1280).toBeLessThan(0.06);
    expect(Number(body.estimatedPayout)).toBeGreaterThan(0);

    const user = await createAffiliate();
    const refused = await apiAdminCreate
      .action({
        request: await requestAs(user, "/api/admin/service-orders", {
          json: {
            serviceType: "shipping",
            vehicleLabel: "x",
            pickup: "Miami, FL",
            delivery: "New York, NY",
          },
        }),
        params: {},
        context: {},
      })
      .catch((thrown: Response) => thrown);
    expect(refused.status).toBe(403);
  });
});
