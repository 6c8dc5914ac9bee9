// Issue 42, findings 6 and 7 (records 3511, 3512): each money e-mail is read beside the page the
// buyer opens for the same state, rendered from that page's own loader, and the amount, the due
// date and how to pay must agree. The won e-mail and its attached invoice once said "your deposit
// pays for it first; you pay the rest on the invoice page" while the page offers the deposit or
// the gateway; the release e-mail and page once ended free storage 72 clock hours after payment.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import PurchasePage, { loader as purchaseLoader } from "~/routes/purchases.$id";
import ReleasePage, { loader as releaseLoader } from "~/routes/purchases.$id_.release";
import ServiceOrderPage, { loader as orderLoader } from "~/routes/service-orders.$id";
import TermsPage, { loader as termsLoader } from "~/routes/terms";
import { confirmTransportPayment } from "~/services/affiliates/transport-payments.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { payWays } from "~/services/purchases/pay-words";
import { confirmPurchasePayment, payPurchase } from "~/services/purchases/paying.server";
import { decideTestOrder } from "~/platform/payments/test-gateway.server";
import { noticeOverduePurchases, remindDuePurchases } from "~/services/purchases/reminders.server";
import { formatUsd } from "~/utils/money";
import { formatDeadline } from "~/utils/time";
import { createAffiliate } from "../support/affiliates";
import { requestAs } from "../support/auth";
import { loaderBody, pageText } from "../support/page-text";
import { arrangeShippingOrder, arrangeWonPurchase, createBuyer } from "../support/purchases";
import { withTestGateway } from "../support/gateway";

withTestGateway();

// the buyer reads in Los Angeles; the yard (Copart Dallas) keeps Central time
const ZONE = "America/Los_Angeles";

const args = (request: Request, params: Record<string, string>) => ({
  request,
  params,
  context: {},
});

async function buyerIn(deposit: string) {
  const buyer = await createBuyer(deposit);
  await sequelize.query("UPDATE users SET time_zone = :zone WHERE id = :id", {
    replacements: { zone: ZONE, id: buyer.id },
  });
  return buyer;
}

async function mail(userId: string, topic: string) {
  const rows = await sequelize.query<{ subject: string; text_body: string; attachments: unknown }>(
    `SELECT subject, text_body, attachments FROM mail_outbox
      WHERE user_id = :userId AND topic = :topic ORDER BY id`,
    { replacements: { userId, topic }, type: QueryTypes.SELECT },
  );
  expect(rows, `one ${topic} e-mail`).toHaveLength(1);
  const { subject, text_body: text, attachments } = rows[0];
  return {
    subject,
    text: text.replace(/\s+/g, " "),
    attachments: (attachments ?? []) as Array<{ content: string }>,
  };
}

const htmlText = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

async function invoicePage(buyer: User, id: string) {
  const result = await purchaseLoader(args(await requestAs(buyer, `/purchases/${id}`), { id }));
  return pageText(PurchasePage, loaderBody(result), {
    url: `/purchases/${id}`,
    path: "/purchases/:id",
    timeZone: ZONE,
  });
}

async function releasePage(buyer: User, id: string) {
  const result = await releaseLoader(
    args(await requestAs(buyer, `/purchases/${id}/release`), { id }),
  );
  return pageText(ReleasePage, loaderBody(result), {
    url: `/purchases/${id}/release`,
    path: "/purchases/:id/release",
    timeZone: ZONE,
  });
}

async function termsPage() {
  return pageText(
    TermsPage,
    loaderBody(
      await termsLoader({
        request: new Request("http://localhost/terms"),
        params: {},
        context: {},
      }),
    ),
    {
      url: "/terms",
      path: "/terms",
      timeZone: ZONE,
    },
  );
}

/** The figures the invoice page stands on: its total and due date as this buyer reads them. */
async function figures(buyer: User, id: string) {
  const view = await purchaseView(buyer.id, id);
  return {
    total: formatUsd(view.totalCents, "cents"),
    due: formatDeadline(view.dueAt!, ZONE),
  };
}

const WAYS = payWays(true); // the tests run the TEST MODE gateway
const OLD_WORDS = /pays? (for it )?first|the rest (is paid )?on the invoice page/i;

describe("every money e-mail says what its page says", () => {
  it("won: the e-mail, its attached invoice and the invoice page agree on the total, the due date and how to pay", async () => {
    const buyer = await buyerIn("5000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "2000.00", {
      soldAt: new Date(Date.now() - 60_000),
    });
    const { total, due } = await figures(buyer, purchaseId);
    const page = await invoicePage(buyer, purchaseId);
    const won = await mail(buyer.id, "won");
    const invoice = htmlText(won.attachments[0].content);

    expect(page).toContain(`due ${due}`);
    expect(page).toContain(total);
    // the page offers both ways, and says so in the words the e-mails use
    expect(page).toContain(WAYS);
    expect(page).toMatch(/Pay \$[\d,.]+ from my deposit/);
    expect(page).toContain(`Pay ${total} with Test Gateway`);
    for (const text of [won.text, invoice]) {
      expect(text).toContain(total);
      expect(text).toContain(due);
      expect(text).toContain(WAYS);
      expect(text).not.toMatch(OLD_WORDS);
    }
    expect(won.subject).toBe(`You won the 2018 Ford F-150: ${total} due by ${due}`);
    // and the "You won" notice
    const [notice] = await sequelize.query<{ body: string }>(
      "SELECT body FROM notifications WHERE user_id = :id AND kind = 'auction_won'",
      { replacements: { id: buyer.id }, type: QueryTypes.SELECT },
    );
    expect(notice.body).toContain(WAYS);
    expect(notice.body).not.toMatch(OLD_WORDS);
  });

  it("due soon, then overdue: each e-mail names the page's total, due date and ways to pay", async () => {
    const buyer = await buyerIn("5000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "900.00", {
      soldAt: new Date(Date.now() - 60_000),
    });
    await sequelize.query(
      "UPDATE purchases SET due_at = now() + interval '12 hours' WHERE id = :id",
      { replacements: { id: purchaseId } },
    );
    await remindDuePurchases();
    const soon = await figures(buyer, purchaseId);
    const duePage = await invoicePage(buyer, purchaseId);
    const dueMail = await mail(buyer.id, "payment_due");
    expect(duePage).toContain(`due ${soon.due}`);
    expect(duePage).toContain(soon.total);
    expect(dueMail.text).toContain(`is due by ${soon.due}: ${soon.total}`);
    expect(dueMail.text).toContain(WAYS);
    expect(duePage).toContain(WAYS);

    await sequelize.query(
      "UPDATE purchases SET due_at = now() - interval '1 hour' WHERE id = :id",
      { replacements: { id: purchaseId } },
    );
    await noticeOverduePurchases();
    const late = await figures(buyer, purchaseId);
    const latePage = await invoicePage(buyer, purchaseId);
    const lateMail = await mail(buyer.id, "overdue");
    // the late fee is on both
    expect(late.total).not.toBe(soon.total);
    expect(latePage).toContain(`was due ${late.due}`);
    expect(latePage).toContain(late.total);
    expect(latePage).toContain("Late payment fee");
    expect(lateMail.text).toContain(`was due by ${late.due}`);
    expect(lateMail.text).toContain(`${late.total} in all`);
    expect(lateMail.text).toContain(WAYS);
    expect(latePage).toContain(WAYS);
  });

  it("paid: the receipt and the paid invoice page agree on the total and what paid it", async () => {
    const buyer = await buyerIn("1500.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1200.00");
    const { total } = await figures(buyer, purchaseId);
    const view = await purchaseView(buyer.id, purchaseId);
    const deposit = view.split!.depositCents;
    // the deposit covers $1,500 of it, the rest goes through the gateway: both parts are listed
    expect(view.split!.gatewayCents).toBeGreaterThan(0);
    const started = await payPurchase(
      buyer.id,
      purchaseId,
      (view.split!.gatewayCents / 100).toFixed(2),
    );
    expect(started.paid).toBe(false);
    const token = new URL((started as { approvalUrl: string }).approvalUrl).searchParams.get(
      "token",
    )!;
    await decideTestOrder(token, true);
    await confirmPurchasePayment(buyer.id, token);
    const receipt = await mail(buyer.id, "paid");
    const page = await invoicePage(buyer, purchaseId);
    const parts = [
      `From your deposit: ${formatUsd(deposit, "cents")}.`,
      `Through the payment provider: ${formatUsd(view.totalCents - deposit, "cents")}.`,
    ];
    expect(receipt.subject).toBe(`Receipt: 2018 Ford F-150 paid, ${total}`);
    for (const part of parts) {
      expect(receipt.text).toContain(part);
      expect(page).toContain(part);
    }
    expect(page).toContain(total);
    expect(page).toContain("Paid");
  });

  it("release ready, paid on Saturday at 6:23 AM: e-mail, release page and Terms agree on three yard days", async () => {
    const buyer = await buyerIn("5000.00");
    // sold Friday Nov 27, 2026 at noon in Dallas; paid Saturday 6:23 AM CST
    const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00", {
      soldAt: new Date("2026-11-27T18:00:00Z"),
    });
    setClock(fixedClock("2026-11-28T12:23:00Z"));
    try {
      expect((await payPurchase(buyer.id, purchaseId, "0.00")).paid).toBe(true);
    } finally {
      resetClock();
    }
    // three days the yard is open (Monday, Tuesday, Wednesday), to its close: 5 PM CST, 3 PM PST
    const freeUntil = "Wed, Dec 2, 2026, 3:00 PM PST";
    const release = await mail(buyer.id, "release");
    const page = await releasePage(buyer, purchaseId);
    const terms = await termsPage();
    expect(release.text).toContain(`Storage is free until ${freeUntil}, then $25.00 a day`);
    expect(page).toContain(`Free until ${freeUntil}, then $25.00 a day, paid at the yard`);
    expect(terms).toContain(
      "Free for 3 business days after payment, until the yard closes on the last of them (weekends and holidays do not count), then $25.00 a day at the yard until pickup.",
    );
    const [{ code }] = await sequelize.query<{ code: string }>(
      "SELECT pickup_code AS code FROM purchases WHERE id = :id",
      { replacements: { id: purchaseId }, type: QueryTypes.SELECT },
    );
    expect(release.text).toContain(`Pickup code: ${code}`);
    expect(page).toContain(code);
  });

  it("release ready over Thanksgiving: the holiday is not a free day, on the page or in the e-mail", async () => {
    const buyer = await buyerIn("5000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00", {
      soldAt: new Date("2026-11-24T18:00:00Z"),
    });
    // paid Wednesday Nov 25, 6 AM CST; Thursday is Thanksgiving: Friday, Monday, Tuesday
    setClock(fixedClock("2026-11-25T12:00:00Z"));
    try {
      await payPurchase(buyer.id, purchaseId, "0.00");
    } finally {
      resetClock();
    }
    const freeUntil = "Tue, Dec 1, 2026, 3:00 PM PST";
    expect((await mail(buyer.id, "release")).text).toContain(`Storage is free until ${freeUntil}`);
    expect(await releasePage(buyer, purchaseId)).toContain(`Free until ${freeUntil}`);
  });

  it("transport: the receipt and the claimed e-mail name the order page's price and how it was paid", async () => {
    const { buyer, order, id } = await arrangeShippingOrder("5000.00", { firstName: "Tia" });
    await confirmTransportPayment(buyer.id, id, order.payout, "deposit");
    const price = formatUsd(order.payout);
    const receipt = await mail(buyer.id, "paid");
    const carrier = await createAffiliate();
    await runOrderStep(carrier.id, id, "claim");
    const claimed = await mail(buyer.id, "transport");
    const result = await orderLoader(args(await requestAs(buyer, `/service-orders/${id}`), { id }));
    const page = pageText(ServiceOrderPage, loaderBody(result), {
      url: `/service-orders/${id}`,
      path: "/service-orders/:id",
      timeZone: "America/Chicago",
    });
    expect(receipt.text).toContain(price);
    expect(receipt.text).toContain("from your deposit");
    expect(page).toContain(price);
    expect(page).toContain(`${price} (paid)`);
    expect(claimed.text).toContain("→ Long Beach, CA");
    expect(page).toContain("Long Beach, CA");
  });
});
