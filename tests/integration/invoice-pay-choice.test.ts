// Issue 35: the invoice asks how to pay, as the transport checkout does: the deposit first (the
// rest through the gateway) or all through the gateway, each with the buying power it leaves; the
// choice posted is the one used, and paying through the gateway leaves the deposit alone.
import { describe, expect, it } from "vitest";
import { User } from "~/models/user.server";
import { availableBuyingPower } from "~/services/auctions/buying-power.server";
import { payChoices, purchaseView, splitFor } from "~/services/purchases/invoices.server";
import { confirmPurchasePayment, payPurchase } from "~/services/purchases/paying.server";
import { decideTestOrder } from "~/platform/payments/test-gateway.server";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { withTestGateway } from "../support/gateway";

withTestGateway();

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;

describe("the two ways to pay an invoice", () => {
  it("says the buying power after each way", () => {
    // a $1,263 invoice, $1,000 of the deposit free for it, nothing free for bidding now
    expect(payChoices(126_300, 100_000, 0)).toEqual({
      buyingPowerNowCents: 0,
      deposit: { depositCents: 100_000, gatewayCents: 26_300, afterCents: 0 },
      gateway: { depositCents: 0, gatewayCents: 126_300, afterCents: 100_000 },
    });
    expect(splitFor("gateway", 50_000, 100_000)).toEqual({ depositCents: 0, gatewayCents: 50_000 });
    expect(splitFor("deposit", 50_000, 100_000)).toEqual({ depositCents: 50_000, gatewayCents: 0 });
  });

  it("the invoice view offers both, from the buyer's own figures", async () => {
    const buyer = await createBuyer("1000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00");
    const view = await purchaseView(buyer.id, purchaseId);
    expect(view.choices).toEqual({
      buyingPowerNowCents: 0,
      deposit: {
        depositCents: 100_000,
        gatewayCents: view.totalCents - 100_000,
        afterCents: 0,
      },
      gateway: { depositCents: 0, gatewayCents: view.totalCents, afterCents: 100_000 },
    });
  });

  it("paying through the gateway takes nothing from the deposit", async () => {
    const buyer = await createBuyer("1000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00");
    const view = await purchaseView(buyer.id, purchaseId);
    const total = (view.totalCents / 100).toFixed(2);
    // the deposit-first amount is refused for the gateway choice: the form and the choice agree
    const refused = await payPurchase(
      buyer.id,
      purchaseId,
      ((view.totalCents - 100_000) / 100).toFixed(2),
      "gateway",
    ).catch((error: { status: number }) => error.status);
    expect(refused).toBe(409);

    const started = await payPurchase(buyer.id, purchaseId, total, "gateway");
    expect(started.paid).toBe(false);
    const token = tokenOf((started as { approvalUrl: string }).approvalUrl);
    await decideTestOrder(token, true);
    expect(await confirmPurchasePayment(buyer.id, token)).toBe(purchaseId);
    const paid = await purchaseView(buyer.id, purchaseId);
    expect(paid.status).toBe("paid");
    expect(paid.paid.map(({ kind, cents }) => ({ kind, cents }))).toEqual([
      { kind: "gateway", cents: view.totalCents },
    ]);
    const user = await User.findByPk(buyer.id, { rejectOnEmpty: true });
    expect(user.deposit).toBe("1000.00");
    expect(await availableBuyingPower(buyer.id)).toBe("1000.00");
  });
});
