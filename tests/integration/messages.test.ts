import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { RATE_LIMITS } from "~/platform/rate-limit.server";
import {
  messageSeller,
  replyInThread,
  sendMessageNotices,
} from "~/services/messages/messages.server";
import * as newMessage from "~/routes/messages.new";
import * as thread from "~/routes/messages.$threadId";
import * as inbox from "~/routes/messages._index";
import * as reports from "~/routes/admin_.message-reports";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";

type Args = Parameters<typeof thread.loader>[0];
type User = Awaited<ReturnType<typeof createTestUser>>;

async function run(
  handler: (args: Args) => Promise<unknown>,
  user: User | null,
  path: string,
  params: Record<string, string>,
  form?: Record<string, string>,
) {
  try {
    const result = await handler({
      request: await requestAs(user, path, form ? { form } : {}),
      params,
      context: {},
    });
    if (result instanceof Response) return { status: result.status, result };
    return { status: (result as { init?: ResponseInit })?.init?.status ?? 200, result };
  } catch (error) {
    if (error instanceof Response) return { status: error.status, result: error };
    throw error;
  }
}

describe("message notices by e-mail", () => {
  const noticesTo = (user: User) =>
    sequelize.query<{ subject: string; text_body: string }>(
      "SELECT subject, text_body FROM mail_outbox WHERE topic = 'messages' AND user_id = :id ORDER BY id",
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
  /** As if the last notice of every thread of `user` went out a quarter-hour ago. */
  const quarterHourLater = (user: User) =>
    sequelize.query(
      "UPDATE message_notices SET last_sent_at = last_sent_at - interval '15 minutes' WHERE recipient_id = :id",
      { replacements: { id: user.id } },
    );

  it("are combined: one e-mail per thread per quarter-hour, listing the messages that came", async () => {
    const seller = await createTestUser({ firstName: "Sally" });
    const buyer = await createTestUser({ firstName: "Bob" });
    const listing = await createTestListing(seller, { title: "2016 Honda Civic EX" });
    const threadId = await messageSeller(buyer.id, String(listing.id), "Message 1");
    await sendMessageNotices();
    const first = await noticesTo(seller);
    expect(first).toHaveLength(1);
    expect(first[0].subject).toBe("A new message from Bob about 2016 Honda Civic EX");
    expect(first[0].text_body).toContain("Bob: “Message 1”");

    // 29 more in the next minute: no e-mail until the first notice is a quarter-hour old
    for (let i = 2; i <= 30; i += 1) await replyInThread(buyer.id, threadId, `Message ${i}`);
    await sendMessageNotices();
    await sendMessageNotices();
    expect(await noticesTo(seller)).toHaveLength(1);

    await quarterHourLater(seller);
    await sendMessageNotices();
    await sendMessageNotices();
    const after = await noticesTo(seller);
    expect(after).toHaveLength(2);
    expect(after[1].subject).toBe("29 new messages from Bob about 2016 Honda Civic EX");
    // the newest ten quoted, the rest counted; nothing listed twice
    expect(after[1].text_body).toContain("(19 earlier messages not shown)");
    expect(after[1].text_body).toContain("Bob: “Message 30”");
    expect(after[1].text_body).toContain("Bob: “Message 21”");
    expect(after[1].text_body).not.toContain("“Message 20”");
    expect(after[1].text_body).not.toContain("“Message 1”");
    // a quiet thread sends nothing more; the seller's own replies never notify the seller
    await replyInThread(seller.id, threadId, "Yes, come see it.");
    await quarterHourLater(seller);
    await sendMessageNotices();
    expect(await noticesTo(seller)).toHaveLength(2);
    const toBuyer = await noticesTo(buyer);
    expect(toBuyer).toHaveLength(1);
    expect(toBuyer[0].text_body).toContain("Sally: “Yes, come see it.”");
  });

  it("are per thread: another thread's messages get their own notice", async () => {
    const seller = await createTestUser({ firstName: "Sally" });
    const one = await createTestUser({ firstName: "Ann" });
    const two = await createTestUser({ firstName: "Ben" });
    const listing = await createTestListing(seller, { title: "2019 Ford F-150" });
    await messageSeller(one.id, String(listing.id), "From Ann");
    await messageSeller(two.id, String(listing.id), "From Ben");
    await sendMessageNotices();
    const notices = await noticesTo(seller);
    expect(notices.map((n) => n.subject).sort()).toEqual([
      "A new message from Ann about 2019 Ford F-150",
      "A new message from Ben about 2019 Ford F-150",
    ]);
  });
});

describe("messages to a seller", () => {
  it("are private to the buyer and the seller; neither sees the other's e-mail", async () => {
    const seller = await createTestUser({ firstName: "Sally" });
    const buyer = await createTestUser({ firstName: "Bob" });
    const stranger = await createTestUser();
    const admin = await createTestUser({ role: "admin" });
    const listing = await createTestListing(seller, { title: "2016 Honda Civic EX" });

    const sent = await run(
      newMessage.action,
      buyer,
      `/messages/new?listing=${listing.id}`,
      {},
      {
        body: "Is it still available?",
      },
    );
    expect(sent.status).toBe(302);
    const location = (sent.result as Response).headers.get("Location")!;
    const threadId = location.split("/").pop()!;
    expect(location).toBe(`/messages/${threadId}`);

    // The seller reads it and replies.
    const asSeller = await run(thread.loader, seller, location, { threadId });
    expect(asSeller.status).toBe(200);
    const view = (
      asSeller.result as { thread: { otherName: string; messages: { body: string }[] } }
    ).thread;
    expect(view.otherName).toBe("Bob");
    expect(view.messages.map((m) => m.body)).toEqual(["Is it still available?"]);
    expect(JSON.stringify(asSeller.result)).not.toContain(buyer.email);
    const reply = await run(
      thread.action,
      seller,
      location,
      { threadId },
      { intent: "send", body: "Yes, come see it." },
    );
    expect(reply.status).toBe(302);

    const asBuyer = await run(thread.loader, buyer, location, { threadId });
    expect(JSON.stringify(asBuyer.result)).not.toContain(seller.email);
    expect(
      (asBuyer.result as { thread: { messages: { body: string; mine: boolean }[] } }).thread
        .messages,
    ).toMatchObject([
      { body: "Is it still available?", mine: true },
      { body: "Yes, come see it.", mine: false },
    ]);

    // Nobody else reads, writes or reports in it, admins included (they see reports only).
    for (const outsider of [stranger, admin]) {
      expect((await run(thread.loader, outsider, location, { threadId })).status).toBe(404);
      expect(
        (await run(thread.action, outsider, location, { threadId }, { intent: "send", body: "hi" }))
          .status,
      ).toBe(404);
      const list = await run(inbox.loader, outsider, "/messages", {});
      expect((list.result as { threads: unknown[] }).threads).toEqual([]);
    }
    expect((await run(thread.loader, null, location, { threadId })).status).toBe(302);

    // Each got an in-app notice and an e-mail notice, to their own address only.
    await sendMessageNotices();
    const mails = await sequelize.query<{ user_id: string; to_address: string; text_body: string }>(
      "SELECT user_id, to_address, text_body FROM mail_outbox WHERE topic = 'messages' AND user_id IN (:ids) ORDER BY id",
      { replacements: { ids: [seller.id, buyer.id] }, type: QueryTypes.SELECT },
    );
    expect(mails.map((m) => m.to_address)).toEqual([seller.email, buyer.email]);
    expect(mails[0].text_body).not.toContain(buyer.email);
    expect(mails[1].text_body).not.toContain(seller.email);
    const [{ count }] = await sequelize.query<{ count: string }>(
      "SELECT count(*) FROM notifications WHERE kind = 'message_received' AND user_id IN (:ids)",
      { replacements: { ids: [seller.id, buyer.id] }, type: QueryTypes.SELECT },
    );
    expect(Number(count)).toBe(2);

    // Writing again from the listing continues the same thread.
    const again = await run(newMessage.loader, buyer, `/messages/new?listing=${listing.id}`, {});
    expect((again.result as Response).headers.get("Location")).toBe(location);
  });

  it("refuse empty, huge, own-listing and unknown-listing messages with a 4xx, writing nothing", async () => {
    const seller = await createTestUser();
    const buyer = await createTestUser();
    const listing = await createTestListing(seller);
    const path = `/messages/new?listing=${listing.id}`;
    expect((await run(newMessage.action, buyer, path, {}, { body: "  " })).status).toBe(400);
    expect((await run(newMessage.action, buyer, path, {}, { body: "x".repeat(2001) })).status).toBe(
      400,
    );
    expect((await run(newMessage.action, seller, path, {}, { body: "to myself" })).status).toBe(
      400,
    );
    expect(
      (await run(newMessage.action, buyer, "/messages/new?listing=999999999", {}, { body: "hi" }))
        .status,
    ).toBe(404);
    expect(
      (await run(newMessage.action, buyer, "/messages/new?listing=abc", {}, { body: "hi" })).status,
    ).toBe(404);
    const [{ count }] = await sequelize.query<{ count: string }>(
      "SELECT count(*) FROM message_threads WHERE listing_id = :id",
      { replacements: { id: listing.id }, type: QueryTypes.SELECT },
    );
    expect(Number(count)).toBe(0);
  });

  it("are rate-limited per sender", async () => {
    const seller = await createTestUser();
    const buyer = await createTestUser();
    const listing = await createTestListing(seller);
    const path = `/messages/new?listing=${listing.id}`;
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.message.points; i++) {
      statuses.push(
        (await run(newMessage.action, buyer, path, {}, { body: `Message ${i}` })).status,
      );
    }
    expect(statuses.slice(0, -1).every((s) => s === 302)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("can be reported to the admins, who see it in context and close the report", async () => {
    const seller = await createTestUser();
    const buyer = await createTestUser();
    const admin = await createTestUser({ role: "admin" });
    const listing = await createTestListing(seller, { title: "Reported car" });
    const sent = await run(
      newMessage.action,
      buyer,
      `/messages/new?listing=${listing.id}`,
      {},
      {
        body: "Pay me by gift card",
      },
    );
    const location = (sent.result as Response).headers.get("Location")!;
    const threadId = location.split("/").pop()!;
    const view = (await run(thread.loader, seller, location, { threadId })).result as {
      thread: { messages: { id: string }[] };
    };
    const messageId = view.thread.messages[0].id;

    // The writer cannot report their own message; the other person can, once.
    expect(
      (
        await run(
          thread.action,
          buyer,
          location,
          { threadId },
          { intent: "report", messageId, reason: "x" },
        )
      ).status,
    ).toBe(400);
    for (let i = 0; i < 2; i++) {
      const reported = await run(
        thread.action,
        seller,
        location,
        { threadId },
        { intent: "report", messageId, reason: "Scam" },
      );
      expect(reported.status).toBe(302);
    }
    expect((await run(reports.loader, seller, "/admin/message-reports", {})).status).toBe(403);
    const open = (await run(reports.loader, admin, "/admin/message-reports", {})).result as {
      reports: { id: string; body: string; reason: string; context: { reported: boolean }[] }[];
    };
    const mine = open.reports.filter((r) => r.body === "Pay me by gift card");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ reason: "Scam" });
    expect(mine[0].context.some((m) => m.reported)).toBe(true);
    const closed = await run(
      reports.action,
      admin,
      "/admin/message-reports",
      {},
      { reportId: mine[0].id },
    );
    expect(closed.status).toBe(302);
    const after = (await run(reports.loader, admin, "/admin/message-reports", {})).result as {
      reports: { id: string }[];
    };
    expect(after.reports.some((r) => r.id === mine[0].id)).toBe(false);
  });
});
