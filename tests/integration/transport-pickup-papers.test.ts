// Ship it measures from the yard's own ZIP and names the yard's town (record 3532); the carrier
// that claims a buyer's job gets the yard's street, hours and phone, the delivery address and a
// gate pass; the buyer's release names that carrier (record 3531). Anyone else: not found. The
// Release ready e-mail names the yard's street, hours and phone.
import { beforeAll, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { ServiceOrder } from "~/models/affiliate.server";
import type { User } from "~/models/user.server";
import { resetEnvForTests } from "~/platform/env.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { confirmTransportPayment } from "~/services/affiliates/transport-payments.server";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { payPurchase } from "~/services/purchases/paying.server";
import * as requestPage from "~/routes/service-orders.request";
import * as orderPage from "~/routes/service-orders.$id";
import * as gatePass from "~/routes/service-orders.$id_.gate-pass";
import * as releasePage from "~/routes/purchases.$id_.release";
import { createAffiliate, createAdmin } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import {
  addKentYard,
  arrangeWonPurchase,
  createBuyer,
  paidSeattlePurchase,
} from "../support/purchases";
import { call as callRoute, type Handler } from "../support/routes";

const call = (handler: unknown, request: Request, params: Record<string, string> = {}) =>
  callRoute(handler as Handler, request, params);

let buyer: User;

beforeAll(async () => {
  resetEnvForTests();
  buyer = await createTestUser({ firstName: "Blake", lastName: "Buyer", verified: true });
  await recordOpeningBalance(buyer.id, "9000.00");
  // the IAAI yard the feed calls "Seattle" is in Kent (98032)
  await addKentYard();
});

/** A paid purchase of a lot listed under Seattle at the IAAI "Seattle" yard, with its code. */
async function paidSeattleLot() {
  return (await paidSeattlePurchase(buyer, "KENT4242")).purchaseId;
}

async function postRequest(form: Record<string, string>) {
  return call(requestPage.action, await requestAs(buyer, "/service-orders/request", { form }));
}

describe("Ship it from the yard", () => {
  it("measures from the yard's ZIP and names the yard's town, not the metro the lot is listed under", async () => {
    const purchaseId = await paidSeattleLot();
    const answer = await postRequest({
      purchaseId,
      serviceType: "shipping",
      delivery: "98101",
      intent: "quote",
    });
    expect(answer.status).toBe(200);
    const { quote } = (await answer.json()) as {
      quote: { from: string; to: string; miles: number };
    };
    expect(quote.from).toBe("Kent, WA");
    expect(quote.to).toBe("Seattle, WA 98101");
    // the centres of the 980 and 981 ZIP areas (record 1705), not Seattle to itself (1 mile)
    expect(quote.miles).toBe(10);
  });
});

describe("a claimed job's pickup papers", () => {
  let purchaseId: string;
  let orderId: string;
  let carrier: User;

  beforeAll(async () => {
    purchaseId = await paidSeattleLot();
    const answer = await postRequest({
      purchaseId,
      serviceType: "shipping",
      delivery: "60614",
      deliveryStreet: "2045 N Lincoln Park W",
      intent: "request",
    });
    expect(answer.status).toBe(303);
    const order = (await ServiceOrder.findOne({ where: { purchaseId } }))!;
    orderId = String(order.id);
    expect(order.pickupCity).toBe("Kent");
    expect(order.deliveryStreet).toBe("2045 N Lincoln Park W");
    await confirmTransportPayment(buyer.id, orderId, order.payout, "deposit");
    carrier = await createAffiliate();
  });

  it("the buyer's release names no carrier until one claims the job, then names it", async () => {
    const read = async () =>
      (
        (await (
          await call(
            releasePage.loader,
            await requestAs(buyer, `/purchases/${purchaseId}/release`),
            {
              id: purchaseId,
            },
          )
        ).json()) as { purchase: { gatePass: { carrier: string | null } } }
      ).purchase.gatePass.carrier;
    expect(await read()).toBeNull();
    await runOrderStep(carrier.id, orderId, "claim");
    expect(await read()).toBe(`Carrier ${carrier.lastName}`);
  });

  it("the carrier's job page gives the yard's street, hours and phone and the full delivery address", async () => {
    const answer = await call(
      orderPage.loader,
      await requestAs(carrier, `/service-orders/${orderId}`),
      { id: orderId },
    );
    const { papers } = (await answer.json()) as {
      papers: {
        yard: { street: string; city: string; zip: string; hours: string; phone: string };
        delivery: { street: string; zip: string; city: string; state: string };
        release: { pickupCode: string } | null;
      };
    };
    expect(papers.yard).toMatchObject({
      street: "22606 68th Ave S",
      city: "Kent",
      zip: "98032",
      hours: "Mon–Fri 8:00 AM – 4:30 PM",
      phone: "(253) 555-0190",
    });
    expect(papers.delivery).toEqual({
      street: "2045 N Lincoln Park W",
      zip: "60614",
      city: "Chicago",
      state: "IL",
    });
    expect(papers.release?.pickupCode).toBe("KENT4242");
  });

  it("the gate pass opens for the carrier that claimed the job and is not found for anyone else", async () => {
    const open = async (user: User) =>
      call(gatePass.loader, await requestAs(user, `/service-orders/${orderId}/gate-pass`), {
        id: orderId,
      });
    const mine = await open(carrier);
    expect(mine.status).toBe(200);
    const { papers } = (await mine.json()) as {
      papers: { carrierName: string; release: { pickupCode: string; buyerFirstName: string } };
    };
    expect(papers.carrierName).toBe(`Carrier ${carrier.lastName}`);
    expect(papers.release).toMatchObject({ pickupCode: "KENT4242", buyerFirstName: "Blake" });

    const otherCarrier = await createAffiliate();
    const pending = await createAffiliate("pending");
    for (const person of [otherCarrier, pending, buyer, await createAdmin()]) {
      expect((await open(person)).status, person.email).toBe(404);
    }
    // a malformed id is not found either, not a 500
    const odd = await call(
      gatePass.loader,
      await requestAs(carrier, "/service-orders/1%27/gate-pass"),
      { id: "1'" },
    );
    expect(odd.status).toBe(404);
  });
});

describe("the Release ready e-mail", () => {
  it("names the yard's street, hours and phone", async () => {
    const payer = await createBuyer("20000.00");
    const { purchaseId } = await arrangeWonPurchase(payer, "1200.00");
    await sequelize.query(
      `INSERT INTO yards (auction_house, name, street, city, state, zip, phone, hours)
       VALUES ('copart', 'Copart Dallas', '3302 Irving Blvd', 'Dallas', 'TX', '75211',
               '(214) 555-0123', 'Mon–Fri 8:00 AM – 4:00 PM')
       ON CONFLICT (auction_house, name) DO UPDATE SET street = EXCLUDED.street,
         phone = EXCLUDED.phone, hours = EXCLUDED.hours`,
    );
    await payPurchase(payer.id, purchaseId, "0.00");
    const [mail] = await sequelize.query<{ text_body: string }>(
      "SELECT text_body FROM mail_outbox WHERE user_id = :id AND topic = 'release'",
      { replacements: { id: payer.id }, type: QueryTypes.SELECT },
    );
    expect(mail.text_body).toContain(
      "Where: Copart Dallas, 3302 Irving Blvd, Dallas, TX 75211. VIN ",
    );
    expect(mail.text_body).toContain(
      "Yard hours: Mon–Fri 8:00 AM – 4:00 PM. Yard phone: (214) 555-0123.",
    );
  });
});
