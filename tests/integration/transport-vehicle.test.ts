// A transport order names the vehicle as the yard and the provider know it (docs/decisions/2705):
// the body type decoded from the VIN, the auction house's own lot number, and a delivery ZIP
// code accepted like the all-in estimator accepts it ("ZIP, or city, ST").
import { describe, expect, it } from "vitest";
import { ServiceOrder } from "~/models/affiliate.server";
import { Purchase } from "~/models/auction.server";
import * as orderPage from "~/routes/service-orders.$id";
import * as requestPage from "~/routes/service-orders.request";
import { vehicleTypeOf } from "~/services/affiliates/service-order-vehicles.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { args } from "../support/routes";

// a 2017 Honda CR-V: its VIN decodes to an SUV; the feed's abbreviation "4DR SPOR" read as a sedan
const CRV_VIN = "5J6RW2H89HL000000";

async function paidCrv() {
  const buyer = await createTestUser({ firstName: "Wendy" });
  const lot = await createTestLot({
    vin: CRV_VIN,
    year: 2017,
    make: "Honda",
    model: "CR-V",
    bodyStyle: "4DR SPOR",
    lotNumber: `71${Math.floor(Math.random() * 1e6)}`,
    locationCity: "Dallas",
    locationState: "TX",
    yardName: "Copart Dallas",
    status: "sold",
    highBidderId: buyer.id,
    highMax: "4000.00",
    currentBid: "4000.00",
    closedAt: new Date(),
  });
  const purchase = await Purchase.create({
    lotId: lot.id,
    userId: buyer.id,
    amount: "4000.00",
    status: "paid",
    paidAt: new Date(),
  });
  return { buyer, lot, purchase };
}

async function ask(
  buyer: Awaited<ReturnType<typeof createTestUser>>,
  purchaseId: string,
  delivery: string,
) {
  return (await requestPage.action(
    args(
      await requestAs(buyer, "/service-orders/request", {
        form: { purchaseId, serviceType: "shipping", delivery },
      }),
    ),
  )) as Response | { init: { status: number }; data: Record<string, unknown> };
}

describe("a transport order's vehicle", () => {
  it("carries the decoded body type and the auction's lot number, not our id", async () => {
    const { buyer, lot, purchase } = await paidCrv();
    const answer = (await ask(buyer, String(purchase.id), "Houston, TX")) as Response;
    expect(answer.status).toBe(303);
    const order = (await ServiceOrder.findOne({ where: { purchaseId: purchase.id } }))!;
    expect(order.vehicleType).toBe("suv");
    expect([order.bodyStyle, order.auctionHouse, order.lotNumber]).toEqual([
      "SUV",
      "copart",
      lot.lotNumber,
    ]);
    const page = await orderPage.loader(
      args(await requestAs(buyer, `/service-orders/${order.id}`), { id: String(order.id) }),
    );
    expect(page.order).toMatchObject({
      vehicleLabel: "2017 Honda CR-V",
      vehicleType: "suv",
      bodyStyle: "SUV",
      lotReference: `Copart lot ${lot.lotNumber}`,
    });
  });

  it("reads the feeds' and the decoder's body names into the board's types", () => {
    expect(vehicleTypeOf("4DR SPOR")).toBe("suv");
    expect(vehicleTypeOf("SUV")).toBe("suv");
    expect(vehicleTypeOf("Sport Utility Vehicle (SUV)/Multi-Purpose Vehicle (MPV)")).toBe("suv");
    expect(vehicleTypeOf("Minivan")).toBe("suv");
    expect(vehicleTypeOf("CREW PICKUP")).toBe("truck");
    expect(vehicleTypeOf("Pickup")).toBe("truck");
    expect(vehicleTypeOf("SEDAN 4D")).toBe("sedan");
    expect(vehicleTypeOf("Hatchback/Liftback/Notchback")).toBe("sedan");
    expect(vehicleTypeOf("Motorcycle - Street")).toBeNull();
  });
});

describe("Ship it to a ZIP code", () => {
  it("accepts a ZIP like the estimator, and names its area on the order", async () => {
    const { buyer, purchase } = await paidCrv();
    const answer = (await ask(buyer, String(purchase.id), "90210")) as Response;
    expect(answer.status).toBe(303);
    const order = (await ServiceOrder.findOne({ where: { purchaseId: purchase.id } }))!;
    expect(order.deliveryZip).toBe("90210");
    expect(order.deliveryState).toBe("CA");
    // Dallas to the Los Angeles area: about 1,400 road miles
    expect(order.distanceMiles).toBeGreaterThan(1200);
    expect(order.distanceMiles).toBeLessThan(1700);
    const page = await orderPage.loader(
      args(await requestAs(buyer, `/service-orders/${order.id}`), { id: String(order.id) }),
    );
    expect(page.order.deliveryLocation).toMatch(/^90210 \(.+, CA area\)$/);
  });

  it("an unknown ZIP or place is a 400 with the estimator's words, and nothing is written", async () => {
    const { buyer, purchase } = await paidCrv();
    const unknown = (await ask(buyer, String(purchase.id), "00099")) as {
      init: { status: number };
      data: { formError: string };
    };
    expect(unknown.init.status).toBe(400);
    expect(unknown.data.formError).toBe(
      'We do not know ZIP code 00099. Check it, or enter a city as "Dallas, TX".',
    );
    const nowhere = (await ask(buyer, String(purchase.id), "Atlantis")) as {
      init: { status: number };
      data: { fieldErrors: { delivery: string[] } };
    };
    expect(nowhere.init.status).toBe(400);
    expect(nowhere.data.fieldErrors.delivery).toEqual([
      'Enter a 5-digit ZIP code, or a city from the list as "Dallas, TX"',
    ]);
    expect(await ServiceOrder.count({ where: { purchaseId: purchase.id } })).toBe(0);
  });
});
