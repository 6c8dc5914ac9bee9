// One status per question on every page (docs/decisions/2704): the dashboard, the deposit page,
// the lot page and the KYC page give the same identity and bidding answers; the job board and an
// order's page offer "Claim Job" only to whom it works for, and the server agrees.
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { loader as dashboardLoader } from "~/routes/_index";
import { loader as depositLoader } from "~/routes/deposit/route";
import { loader as kycLoader } from "~/routes/kyc-verification/route";
import { loader as lotLoader } from "~/routes/auctions.$lotId/route";
import * as board from "~/routes/service-orders._index/route";
import * as orderPage from "~/routes/service-orders.$id";
import { claimOrder } from "~/services/affiliates/service-order-claims.server";
import { createAdmin, createAffiliate, createTestOrder } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { args } from "../support/routes";

const unwrap = <T>(value: unknown) => ((value as { data?: T }).data ?? value) as T;

async function pages(user: User) {
  const lot = await createTestLot();
  const dashboard = unwrap<{
    identity: { label: string; detail: string };
    eligibility: { label: string; canBid: boolean };
  }>(await dashboardLoader(args(await requestAs(user, "/"))));
  const deposit = unwrap<{ eligibility: { label: string; canBid: boolean } }>(
    await depositLoader(args(await requestAs(user, "/deposit"))),
  );
  const kyc = unwrap<{ identity: { label: string; detail: string } }>(
    await kycLoader(args(await requestAs(user, "/kyc-verification"))),
  );
  const lotPage = unwrap<{
    state: {
      bidder: {
        eligibility: { label: string; canBid: boolean; reasons: { description: string }[] };
      };
    };
  }>(await lotLoader(args(await requestAs(user, `/auctions/${lot.id}`), { lotId: lot.id })));
  return { dashboard, deposit, kyc, lot: lotPage.state.bidder.eligibility };
}

/** A document waiting for review, as the upload flow leaves it (an attached upload row). */
async function sendDocument(user: User) {
  const key = `kyc/${user.id}/doc`;
  const [[upload]] = (await sequelize.query(
    `INSERT INTO uploads (user_id, purpose, object_key, content_type, size_bytes, status,
       expires_at)
     VALUES (:userId, 'kyc_document', :key, 'image/png', 20, 'attached', now() + interval '1 day')
     RETURNING id`,
    { replacements: { userId: user.id, key } },
  )) as [Array<{ id: string }>, unknown];
  await sequelize.query(
    `INSERT INTO kyc_documents (user_id, upload_id, document_type, object_key, content_type,
       size_bytes)
     VALUES (:userId, :uploadId, 'passport', :key, 'image/png', 20)`,
    { replacements: { userId: user.id, uploadId: upload.id, key } },
  );
}

describe("identity and bidding, the same on every page", () => {
  it("before any upload: Not started everywhere, never Pending, and no page says bidding is on", async () => {
    const user = await createTestUser({ verified: false, deposit: "1000.00" });
    const seen = await pages(user);
    expect(seen.dashboard.identity.label).toBe("Not started");
    expect(seen.kyc.identity.label).toBe("Not started");
    for (const answer of [seen.dashboard.eligibility, seen.deposit.eligibility, seen.lot]) {
      expect(answer).toMatchObject({ canBid: false, label: "Verification Required" });
    }
  });

  it("after sending an ID: under review on every page, with one review time", async () => {
    const user = await createTestUser({ verified: false, deposit: "1000.00" });
    await sendDocument(user);
    const seen = await pages(user);
    expect(seen.dashboard.identity).toMatchObject({
      label: "Under review",
      detail: "Your document is being reviewed, usually within 24 hours.",
    });
    expect(seen.kyc.identity).toEqual(seen.dashboard.identity);
    // the deposit page no longer says "Bidding Enabled" while the lot refuses
    for (const answer of [seen.dashboard.eligibility, seen.deposit.eligibility, seen.lot]) {
      expect(answer).toMatchObject({ canBid: false, label: "ID Under Review" });
    }
    expect(seen.lot.reasons[0].description).toBe(
      "Your ID is under review (usually within 24 hours). You can bid once it is approved.",
    );
  });

  it("verified with a deposit: bidding enabled on every page", async () => {
    const user = await createTestUser({ verified: true, deposit: "1000.00" });
    const seen = await pages(user);
    for (const answer of [seen.dashboard.eligibility, seen.deposit.eligibility, seen.lot]) {
      expect(answer).toMatchObject({ canBid: true, label: "Bidding Enabled" });
    }
  });
});

describe("Claim Job only for whom it works", () => {
  it("a provider awaiting approval is told why on the board and the order page", async () => {
    const admin = await createAdmin();
    const order = await createTestOrder(admin);
    const pending = await createAffiliate("pending");
    const list = unwrap<{ provider: { canClaim: boolean; reason: string } }>(
      await board.loader(args(await requestAs(pending, "/service-orders"))),
    );
    const one = unwrap<{ provider: { canClaim: boolean; reason: string } }>(
      await orderPage.loader(
        args(await requestAs(pending, `/service-orders/${order.id}`), { id: String(order.id) }),
      ),
    );
    for (const page of [list, one]) {
      expect(page.provider).toMatchObject({
        canClaim: false,
        reason:
          "Your provider application is under review (usually within 24 hours). You can claim jobs once it is approved.",
      });
    }
    await expect(claimOrder(pending.id, String(order.id))).rejects.toMatchObject({ status: 403 });
  });

  it("the buyer of a transport job cannot claim it, even as an approved provider", async () => {
    const admin = await createAdmin();
    const buyer = await createAffiliate("approved");
    const order = await createTestOrder(admin);
    await order.update({ requestedBy: buyer.id });
    const page = unwrap<{ order: { requestedByMe: boolean }; provider: { canClaim: boolean } }>(
      await orderPage.loader(
        args(await requestAs(buyer, `/service-orders/${order.id}`), { id: String(order.id) }),
      ),
    );
    expect(page.order.requestedByMe).toBe(true);
    await expect(claimOrder(buyer.id, String(order.id))).rejects.toMatchObject({
      status: 403,
      message:
        "Not Your Job: This is your own transport request; an approved provider will claim it.",
    });
    const other = await createAffiliate("approved");
    await expect(claimOrder(other.id, String(order.id))).resolves.toBeTruthy();
  });
});
