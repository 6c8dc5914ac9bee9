// Penalties are shown before they are owed (docs/decisions/2751): the invoice, the lot's all-in
// box and the "You won" notice state the late fee, the default's grace days and fee, and storage's
// free days and daily rate in dollars, from the same terms the charges use, and follow the
// admin's changes.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { allInEstimate } from "~/services/purchases/estimate.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { penalties, penaltySummary } from "~/services/purchases/penalties";
import { loadTerms, updateTerms } from "~/services/purchases/schedules.server";
import { createTestUser } from "../support/auth";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";

const texts = (terms: Parameters<typeof penalties>[0]) =>
  Object.fromEntries(penalties(terms).map((p) => [p.code, p.text]));

async function wonNotice(userId: string) {
  const [row] = await sequelize.query<{ body: string }>(
    "SELECT body FROM notifications WHERE user_id = :userId AND kind = 'auction_won'",
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return row.body;
}

describe("penalties shown before they are owed", () => {
  it("words every figure of the opening terms in dollars", async () => {
    const terms = await loadTerms();
    expect(terms).toMatchObject({
      lateFeeCents: 5000,
      storageFreeDays: 3,
      storagePerDayCents: 2500,
      defaultGraceDays: 2,
      defaultFeeCents: 40000,
    });
    expect(texts(terms)).toEqual({
      late_fee: "$50.00, added once if the invoice is not paid by its due date.",
      default:
        "Unpaid 2 days after the due date, the sale can be cancelled and a default fee of $400.00 taken from your deposit.",
      storage:
        "Free for 3 business days after payment, until the yard closes on the last of them (weekends and holidays do not count), then $25.00 a day at the yard until pickup.",
    });
  });

  it("puts the same terms on the invoice, the all-in box and the You won notice", async () => {
    const buyer = await createBuyer("5000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1200.00", {
      soldAt: new Date(Date.now() - 60_000),
    });
    const terms = await loadTerms();
    const view = await purchaseView(buyer.id, purchaseId);
    expect(texts(view.terms)).toEqual(texts(terms));
    const estimate = await allInEstimate(
      { titleType: "clean", locationCity: "Dallas", locationState: "TX", currentBid: "0" },
      new URLSearchParams(),
    );
    expect(texts(estimate.terms)).toEqual(texts(terms));
    const body = await wonNotice(buyer.id);
    expect(body).toContain(penaltySummary(terms));
    for (const figure of ["$50.00", "$400.00", "2 days", "3 business days", "$25.00 a day"])
      expect(body).toContain(figure);
  });

  it("follows the admin's terms: what the charges use is what the words say", async () => {
    const admin = await createTestUser({ role: "admin" });
    const before = await loadTerms();
    await updateTerms(admin, {
      ...before,
      lateFeeCents: 7500,
      storageFreeDays: 1,
      storagePerDayCents: 4000,
      defaultGraceDays: 5,
      defaultFeeCents: 60000,
    });
    try {
      const buyer = await createBuyer("5000.00");
      const { purchaseId } = await arrangeWonPurchase(buyer, "800.00", {
        soldAt: new Date(Date.now() - 60_000),
      });
      const view = await purchaseView(buyer.id, purchaseId);
      expect(texts(view.terms)).toEqual({
        late_fee: "$75.00, added once if the invoice is not paid by its due date.",
        default:
          "Unpaid 5 days after the due date, the sale can be cancelled and a default fee of $600.00 taken from your deposit.",
        storage:
          "Free for 1 business day after payment, until the yard closes on that day (weekends and holidays do not count), then $40.00 a day at the yard until pickup.",
      });
      const body = await wonNotice(buyer.id);
      expect(body).toContain("$75.00");
      expect(body).toContain("$600.00");
      expect(body).not.toContain("$400.00");
    } finally {
      await updateTerms(admin, before);
    }
  });

  it("says plainly when a term costs nothing", () => {
    expect(
      texts({
        lateFeeCents: 0,
        storageFreeDays: 0,
        storagePerDayCents: 1000,
        defaultGraceDays: 0,
        defaultFeeCents: 0,
      }),
    ).toEqual({
      late_fee: "None: paying after the due date adds no fee.",
      default: "Unpaid at the due date, the sale can be cancelled.",
      storage: "$10.00 a day at the yard from payment until pickup.",
    });
  });
});
