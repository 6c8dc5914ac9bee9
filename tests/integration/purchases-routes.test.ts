// The buyer's screens after the hammer, through their loaders and actions: My auctions, the
// purchase page's pay form (deposit part + the gateway's redirect flow), the return, the release.
import { describe, expect, it } from "vitest";
import { toastCookie } from "~/http/cookies.server";
import { loader as myAuctionsLoader } from "~/routes/my-auctions";
import { action as purchaseAction, loader as purchaseLoader } from "~/routes/purchases.$id";
import { loader as releaseLoader } from "~/routes/purchases.$id_.release";
import { loader as returnLoader } from "~/routes/purchases.return";
import { loader as cancelLoader } from "~/routes/purchases.cancel";
import { action as checkoutAction } from "~/routes/payments.test-checkout";
import { placeBid } from "../support/bids";
import { requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { statusOf } from "../support/http";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

type Loaded<T> = { data: T };
async function thrown(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
  return 200;
}

describe("after the hammer, on screen", () => {
  it("my auctions lists bidding (leading, my max) and won (invoice status, next step)", async () => {
    const buyer = await createBuyer("9000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00");
    const open = await createTestLot();
    await placeBid(buyer.id, { lotId: open.id, amount: "700", isProxy: true, maxAmount: "900" });
    const page = (await myAuctionsLoader(
      args(await requestAs(buyer, "/my-auctions")),
    )) as unknown as Loaded<{
      bidding: Array<{ id: string; leading: boolean; myMax: string }>;
      won: Array<{ id: string; status: string; totalCents: number }>;
    }>;
    expect(page.data.bidding).toEqual([
      expect.objectContaining({ id: String(open.id), leading: true, myMax: "900.00" }),
    ]);
    expect(page.data.won).toEqual([expect.objectContaining({ id: purchaseId, status: "pending" })]);
    expect(page.data.won[0].totalCents).toBeGreaterThan(100_000);
  });

  it("pay: deposit part + test gateway redirect → return → release; others get 404", async () => {
    const buyer = await createBuyer("1000.00");
    const other = await createBuyer("1000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00");
    const params = { id: purchaseId };
    const path = `/purchases/${purchaseId}`;
    expect(await thrown(purchaseLoader(args(await requestAs(other, path), params)))).toBe(404);
    expect(
      await thrown(releaseLoader(args(await requestAs(buyer, `${path}/release`), params))),
    ).toBe(409);

    const shown = (await purchaseLoader(
      args(await requestAs(buyer, path), params),
    )) as unknown as Loaded<{
      purchase: { split: { depositCents: number; gatewayCents: number }; totalCents: number };
    }>;
    const { split, totalCents } = shown.data.purchase;
    expect(split.depositCents).toBe(100_000);
    const amount = (split.gatewayCents / 100).toFixed(2);

    // a tampered amount: a clear 409 on the page
    const tampered = await purchaseAction(
      args(await requestAs(buyer, path, { form: { intent: "pay", amount: "1.00" } }), params),
    );
    expect(statusOf(tampered)).toBe(409);
    // someone else's purchase: 404
    expect(
      await thrown(
        purchaseAction(
          args(await requestAs(other, path, { form: { intent: "pay", amount } }), params),
        ),
      ),
    ).toBe(404);

    const pay = (await purchaseAction(
      args(await requestAs(buyer, path, { form: { intent: "pay", amount } }), params),
    )) as Response;
    expect(pay.status).toBe(302);
    const approval = new URL(pay.headers.get("location")!);
    expect(approval.pathname).toBe("/payments/test-checkout");
    const token = approval.searchParams.get("token")!;

    // cancel first: nothing charged, back to the invoice
    const cancelled = await cancelLoader(
      args(await requestAs(buyer, `/purchases/cancel?token=${token}`)),
    );
    expect(cancelled.headers.get("location")).toBe(path);

    const pay2 = (await purchaseAction(
      args(await requestAs(buyer, path, { form: { intent: "pay", amount } }), params),
    )) as Response;
    const token2 = new URL(pay2.headers.get("location")!).searchParams.get("token")!;
    const approved = (await checkoutAction(
      args(
        await requestAs(null, `/payments/test-checkout?token=${token2}`, {
          form: { token: token2, intent: "approve" },
        }),
      ),
    )) as Response;
    const back = new URL(approved.headers.get("location")!);
    expect(back.pathname).toBe("/purchases/return");
    const done = await returnLoader(args(await requestAs(buyer, `${back.pathname}${back.search}`)));
    expect(done.headers.get("location")).toBe(`${path}/release`);

    const release = (await releaseLoader(
      args(await requestAs(buyer, `${path}/release`), params),
    )) as unknown as Loaded<{
      purchase: {
        pickupCode: string;
        paid: Array<{ kind: string; cents: number }>;
        totalCents: number;
        lot: { vin: string };
      };
    }>;
    expect(release.data.purchase.pickupCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(release.data.purchase.paid).toEqual([
      { kind: "deposit", cents: 100_000, at: expect.any(String) },
      { kind: "gateway", cents: split.gatewayCents, at: expect.any(String) },
    ]);
    expect(release.data.purchase.totalCents).toBe(totalCents);
    expect(
      await thrown(releaseLoader(args(await requestAs(other, `${path}/release`), params))),
    ).toBe(404);

    // the return again: back on the paid invoice, told it was paid once, nothing more written
    const again = await returnLoader(
      args(await requestAs(buyer, `${back.pathname}${back.search}`)),
    );
    expect(again.headers.get("location")).toBe(path);
    expect(await toastCookie.parse(again.headers.get("set-cookie"))).toMatchObject({
      title: "This invoice is paid (once)",
    });
  });
});

describe("all-in cost before bidding", () => {
  it("the lot page's GET form: fees + transport = total; the reverse fits the budget", async () => {
    const { loader: lotLoader } = await import("~/routes/auctions.$lotId/route");
    const { allInCost } = await import("~/services/purchases/fees");
    const { loadSchedules } = await import("~/services/purchases/schedules.server");
    const buyer = await createBuyer("5000.00");
    const lot = await createTestLot({ titleType: "salvage" });
    const get = async (query: string) =>
      (
        (await lotLoader(
          args(await requestAs(buyer, `/auctions/${lot.id}?${query}`), { lotId: String(lot.id) }),
        )) as {
          estimate: {
            lines: Array<{ code: string; cents: number }>;
            totalCents: number;
            maxBidCents: number | null;
            error: string | null;
            transport: { miles: number } | null;
          };
        }
      ).estimate;
    const schedules = await loadSchedules();
    const plain = await get("bid=2500");
    expect(plain.totalCents).toBe(allInCost(schedules, 250_000, "salvage").totalCents);
    const shipped = await get("bid=2500&to=Chicago%2C%20IL");
    expect(shipped.transport!.miles).toBeGreaterThan(700);
    const transport = shipped.lines.find((l) => l.code === "transport")!.cents;
    expect(shipped.totalCents).toBe(plain.totalCents + transport);
    const reverse = await get("budget=4000&to=Chicago%2C%20IL");
    const fits = allInCost(schedules, reverse.maxBidCents!, "salvage", transport).totalCents;
    const next = allInCost(schedules, reverse.maxBidCents! + 100, "salvage", transport).totalCents;
    expect(fits).toBeLessThanOrEqual(400_000);
    expect(next).toBeGreaterThan(400_000);
    expect((await get("bid=abc")).error).toMatch(/Enter a bid/);
    expect((await get("to=Atlantis")).error).toMatch(/city/);
  });

  it("ships to a ZIP code: its area's centre, about the same quote as its city", async () => {
    const { loader: lotLoader } = await import("~/routes/auctions.$lotId/route");
    const buyer = await createBuyer("5000.00");
    const lot = await createTestLot({ titleType: "clean" });
    const get = async (query: string) =>
      (
        (await lotLoader(
          args(await requestAs(buyer, `/auctions/${lot.id}?${query}`), { lotId: String(lot.id) }),
        )) as {
          estimate: {
            error: string | null;
            transport: { to: string; miles: number } | null;
          };
        }
      ).estimate;
    const byCity = await get("bid=2500&to=Chicago%2C%20IL");
    const byZip = await get("bid=2500&to=60614");
    expect(byZip.error).toBeNull();
    expect(byZip.transport!.to).toBe("60614 (Chicago, IL area)");
    // the lot is in Dallas: the ZIP area's centre is within a few miles of the city's
    expect(Math.abs(byZip.transport!.miles - byCity.transport!.miles)).toBeLessThan(25);
    const unknown = await get("bid=2500&to=00000");
    expect(unknown.error).toBe(
      'We do not know ZIP code 00000. Check it, or enter a city as "Dallas, TX".',
    );
    expect(unknown.transport).toBeNull();
  });
});
