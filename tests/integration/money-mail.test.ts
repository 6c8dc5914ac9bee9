// Money e-mails through the outbox (docs/decisions/2754): won (the invoice attached as HTML), due
// within 24 hours, overdue, paid, release ready, transport claimed / delivered / paid, and outbid.
// Each is queued once, whatever ticks or requests run at the same moment, under its own topic
// with its own one-click unsubscribe, and follows the preferences on the account page.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { Purchase } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import type { MailAttachment } from "~/platform/mail/outbox.server";
import { mailPreferences, setMailPreferences } from "~/platform/mail/preferences.server";
import { MAIL_TOPICS } from "~/platform/mail/topics";
import type { MailTransport } from "~/platform/mail/transport.server";
import { readUnsubscribeToken, unsubscribe } from "~/platform/mail/unsubscribe.server";
import { action as accountAction, loader as accountLoader } from "~/routes/account._index";
import { requestServiceForPurchase } from "~/services/affiliates/service-orders.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { confirmTransportPayment } from "~/services/affiliates/transport-payments.server";
import { placeBid } from "../support/bids";
import { closeLotIfEnded } from "~/services/auctions/closer.server";
import { mailOutbidNotices } from "~/services/auctions/outbid-mail.server";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { loadTerms } from "~/services/purchases/schedules.server";
import { payPurchase } from "~/services/purchases/paying.server";
import { penaltySummary } from "~/services/purchases/penalties";
import { noticeOverduePurchases, remindDuePurchases } from "~/services/purchases/reminders.server";
import { createAffiliate } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { runJobs } from "../support/jobs";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

type Row = {
  id: string;
  topic: string;
  subject: string;
  text_body: string;
  html_body: string;
  dedupe_key: string;
  status: string;
  attachments: MailAttachment[] | null;
};

async function outbox(userId: string, topic?: string) {
  return sequelize.query<Row>(
    `SELECT id::text, topic, subject, text_body, html_body, dedupe_key, status, attachments
       FROM mail_outbox WHERE user_id = :userId ${topic ? "AND topic = :topic" : ""}
      ORDER BY mail_outbox.id`,
    { replacements: { userId, topic }, type: QueryTypes.SELECT },
  );
}

/** A transport that keeps what it is asked to send. */
function catcher() {
  const sent: Array<{
    messageId: string;
    subject: string;
    headers: Record<string, string>;
    attachments?: unknown[];
  }> = [];
  const transport: MailTransport = {
    sendMail: async (mail) => {
      sent.push(mail as (typeof sent)[number]);
      return { accepted: [mail.to] };
    },
  };
  return { sent, transport };
}

describe("money e-mails", () => {
  it("won: one e-mail with the invoice attached as HTML and the penalties, however often the lot is read", async () => {
    const buyer = await createBuyer("5000.00");
    const { purchaseId, lot } = await arrangeWonPurchase(buyer, "2000.00", {
      soldAt: new Date(Date.now() - 60_000),
    });
    await Promise.all(Array.from({ length: 5 }, () => closeLotIfEnded(lot.id)));
    const won = await outbox(buyer.id, "won");
    expect(won).toHaveLength(1);
    expect(won[0].dedupe_key).toBe(`purchase-won:${purchaseId}`);
    expect(won[0].subject).toMatch(/^You won the 2018 Ford F-150: \$[\d,]+\.\d\d due by /);
    expect(won[0].text_body).toContain(penaltySummary(await loadTerms()));
    expect(won[0].text_body).toContain(`/purchases/${purchaseId}`);
    const [invoice] = won[0].attachments!;
    expect(invoice.filename).toBe(`bidyard-invoice-${purchaseId}.html`);
    expect(invoice.contentType).toMatch(/^text\/html/);
    expect(invoice.content).toContain("BidYard invoice");
    expect(invoice.content).toContain("Winning bid");
    expect(invoice.content).toContain("$2,000.00");
    expect(invoice.content).toContain("a default fee of $400.00");

    // sent through the transport with the attachment and its own one-click unsubscribe
    const { sent, transport } = catcher();
    await runJobs({ transport });
    const mail = sent.find((m) => m.subject === won[0].subject)!;
    expect(mail.attachments).toHaveLength(1);
    const link = mail.headers["List-Unsubscribe"].slice(1, -1);
    const token = link.split("/unsubscribe/")[1];
    expect(readUnsubscribeToken(token)).toEqual({ userId: buyer.id, topic: "won" });
  });

  it("due within 24 h and overdue: one each, whatever the ticks running at once", async () => {
    const buyer = await createBuyer("5000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "900.00", {
      soldAt: new Date(Date.now() - 60_000),
    });
    await sequelize.query(
      "UPDATE purchases SET due_at = now() + interval '12 hours' WHERE id = :id",
      {
        replacements: { id: purchaseId },
      },
    );
    await Promise.all(Array.from({ length: 5 }, () => remindDuePurchases()));
    const due = await outbox(buyer.id, "payment_due");
    expect(due).toHaveLength(1);
    expect(due[0].subject).toMatch(/^Payment due by .+: 2018 Ford F-150$/);
    expect(due[0].text_body).toContain("to avoid the $50.00 late fee");

    await sequelize.query(
      "UPDATE purchases SET due_at = now() - interval '1 hour' WHERE id = :id",
      {
        replacements: { id: purchaseId },
      },
    );
    const told = await Promise.all(Array.from({ length: 5 }, () => noticeOverduePurchases()));
    expect(told.reduce((a, b) => a + b, 0)).toBe(1);
    const overdue = await outbox(buyer.id, "overdue");
    expect(overdue).toHaveLength(1);
    expect(overdue[0].subject).toBe("Payment overdue: 2018 Ford F-150");
    expect(overdue[0].text_body).toContain("The $50.00 late fee is now on it");
    expect(overdue[0].text_body).toContain("a default fee of $400.00 taken from your deposit");
    const [{ n }] = await sequelize.query<{ n: string }>(
      "SELECT count(*) AS n FROM notifications WHERE user_id = :id AND kind = 'purchase_overdue'",
      { replacements: { id: buyer.id }, type: QueryTypes.SELECT },
    );
    expect(Number(n)).toBe(1);
    // paid purchases are not overdue
    expect(await noticeOverduePurchases()).toBe(0);
  });

  it("paid and release ready: one each for ten payments at once", async () => {
    const buyer = await createBuyer("20000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "1200.00");
    await Promise.allSettled(
      Array.from({ length: 10 }, () => payPurchase(buyer.id, purchaseId, "0.00")),
    );
    const paid = await outbox(buyer.id, "paid");
    expect(paid).toHaveLength(1);
    expect(paid[0].subject).toMatch(/^Receipt: 2018 Ford F-150 paid, \$/);
    expect(paid[0].text_body).toContain("paid once");
    expect(paid[0].text_body).toContain("From your deposit: $");
    const release = await outbox(buyer.id, "release");
    expect(release).toHaveLength(1);
    const [purchase] = await sequelize.query<{ pickup_code: string }>(
      "SELECT pickup_code FROM purchases WHERE id = :id",
      { replacements: { id: purchaseId }, type: QueryTypes.SELECT },
    );
    expect(release[0].text_body).toContain(`Pickup code: ${purchase.pickup_code}`);
    expect(release[0].text_body).toContain("then $25.00 a day, paid at the yard");
    expect(release[0].text_body).toContain(`/purchases/${purchaseId}/release`);
  });

  it("transport paid, claimed (five carriers at once) and delivered: one each", async () => {
    const buyer = await createTestUser({ firstName: "Tia" });
    await recordOpeningBalance(buyer.id, "5000.00");
    const lot = await createTestLot({
      locationCity: "Phoenix",
      locationState: "AZ",
      yardName: "IAAI Phoenix",
      status: "sold",
      highBidderId: buyer.id,
      currentBid: "1000.00",
      highMax: "1000.00",
      closedAt: new Date(),
    });
    const purchase = await Purchase.create({
      lotId: lot.id,
      userId: buyer.id,
      amount: "1000.00",
      status: "paid",
      paidAt: new Date(),
    });
    const order = await requestServiceForPurchase(buyer.id, {
      purchaseId: Number(purchase.id),
      serviceType: "shipping",
      delivery: "Long Beach, CA",
    });
    await confirmTransportPayment(buyer.id, String(order.id), order.payout, "deposit");
    const receipt = await outbox(buyer.id, "paid");
    expect(receipt).toHaveLength(1);
    expect(receipt[0].text_body).toContain("paid once from your deposit");

    const carriers = await Promise.all(Array.from({ length: 5 }, () => createAffiliate()));
    const claims = await Promise.allSettled(
      carriers.map((c) => runOrderStep(c.id, String(order.id), "claim")),
    );
    const winner = carriers[claims.findIndex((c) => c.status === "fulfilled")];
    const claimed = await outbox(buyer.id, "transport");
    expect(claimed).toHaveLength(1);
    expect(claimed[0].subject).toBe(`Transport claimed: ${order.vehicleLabel}`);
    expect(claimed[0].text_body).toContain(`Carrier ${winner.lastName} claimed your shipping job`);
    expect(claimed[0].text_body).toContain("→ Long Beach, CA");

    await runOrderStep(winner.id, String(order.id), "start");
    await Promise.allSettled(
      Array.from({ length: 3 }, () => runOrderStep(winner.id, String(order.id), "complete")),
    );
    const transport = await outbox(buyer.id, "transport");
    expect(transport.map((m) => m.dedupe_key)).toEqual([
      `transport-claimed:${order.id}`,
      `transport-delivered:${order.id}`,
    ]);
    expect(transport[1].subject).toBe(`Delivered: ${order.vehicleLabel}`);
  });

  it("outbid: relayed once, only while the reader is still outbid on an open lot", async () => {
    const alice = await createTestUser({ verified: true, deposit: "5000.00" });
    const bob = await createTestUser({ verified: true, deposit: "5000.00" });
    const lot = await createTestLot();
    const lotId = String(lot.id);
    await placeBid(alice.id, { lotId, amount: "300", isProxy: false });
    await placeBid(bob.id, { lotId, amount: "450", isProxy: false });
    const queued = await Promise.all(Array.from({ length: 5 }, () => mailOutbidNotices()));
    expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
    const [mail] = await outbox(alice.id, "outbid");
    expect(mail.subject).toBe("Outbid: 2018 Ford F-150, now $450.00");
    expect(mail.text_body).toContain("To lead again, bid at least $500.00.");
    expect(mail.text_body).toContain(`/auctions/${lotId}`);
    expect(await mailOutbidNotices()).toBe(0);

    // Bob is outbid, then leads again before the tick: his notice is looked at, not mailed
    await placeBid(alice.id, { lotId, amount: "600", isProxy: false });
    await placeBid(bob.id, { lotId, amount: "700", isProxy: false });
    expect(await mailOutbidNotices()).toBe(1); // Alice's second, not Bob's
    expect(await outbox(bob.id, "outbid")).toHaveLength(0);
    expect(await outbox(alice.id, "outbid")).toHaveLength(2);
  });

  it("each topic is its own preference: the account page and the one-click link agree", async () => {
    const buyer = await createBuyer("20000.00");
    expect(Object.values(await mailPreferences(buyer.id)).every(Boolean)).toBe(true);

    // the account page: everything but "won" and "release"
    const keep = MAIL_TOPICS.filter((t) => t !== "won" && t !== "release");
    const saved = (await accountAction(
      args(
        await requestAs(buyer, "/account", {
          form: { intent: "mail-preferences", topic: [...keep] },
        }),
      ),
    )) as Response;
    expect(saved.status).toBe(303);
    const page = await accountLoader(args(await requestAs(buyer, "/account")));
    expect(page.preferences).toMatchObject({
      won: false,
      release: false,
      paid: true,
      outbid: true,
    });

    // bad input: 400, nothing written
    const bad = await accountAction(
      args(
        await requestAs(buyer, "/account", {
          form: { intent: "mail-preferences", topic: ["paid", "spam"] },
        }),
      ),
    );
    expect((bad as unknown as { init: ResponseInit }).init.status).toBe(400);
    expect((await mailPreferences(buyer.id)).won).toBe(false);

    // a one-click link stops "paid" too
    const { purchaseId } = await arrangeWonPurchase(buyer, "1200.00");
    expect(await outbox(buyer.id, "won")).toHaveLength(0);
    const { unsubscribeToken } = await import("~/platform/mail/unsubscribe.server");
    await unsubscribe(unsubscribeToken(buyer.id, "paid"));
    expect((await mailPreferences(buyer.id)).paid).toBe(false);
    await payPurchase(buyer.id, purchaseId, "0.00");
    expect(await outbox(buyer.id, "paid")).toHaveLength(0);
    expect(await outbox(buyer.id, "release")).toHaveLength(0);

    // ticked again on the account page: mailed again
    await setMailPreferences(buyer.id, MAIL_TOPICS);
    expect(Object.values(await mailPreferences(buyer.id)).every(Boolean)).toBe(true);
  });

  it("five workers sending at once send each queued e-mail once", async () => {
    const buyer = await createBuyer("20000.00");
    for (let i = 0; i < 3; i += 1) {
      const { purchaseId } = await arrangeWonPurchase(buyer, "1000.00");
      await payPurchase(buyer.id, purchaseId, "0.00");
    }
    const queued = (await outbox(buyer.id)).filter((m) => m.status === "pending");
    expect(queued.length).toBe(9); // won, paid, release for each
    const { sent, transport } = catcher();
    await Promise.all(Array.from({ length: 5 }, () => runJobs({ transport })));
    const mine = sent.filter((m) => queued.some((q) => q.subject === m.subject));
    const ids = mine.map((m) => m.messageId);
    expect(new Set(ids).size).toBe(ids.length);
    expect((await outbox(buyer.id)).every((m) => m.status === "sent")).toBe(true);
  });
});
