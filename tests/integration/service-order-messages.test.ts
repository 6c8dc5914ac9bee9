// The buyer of a claimed transport job and its carrier write to each other through BidYard's
// messages, by first name only (docs/decisions/3535).
import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { runOrderStep } from "~/services/affiliates/service-order-progress.server";
import { sendMessageNotices } from "~/services/messages/messages.server";
import * as orderRoute from "~/routes/service-orders.$id";
import * as threadRoute from "~/routes/messages.$threadId";
import * as inboxRoute from "~/routes/messages._index";
import { createAdmin, createAffiliate, createTestOrder } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";
import { call, type Handler } from "../support/routes";

// the route modules as Remix calls them
const orderPage = orderRoute as unknown as { loader: Handler; action: Handler };
const threadPage = threadRoute as unknown as { loader: Handler; action: Handler };
const inbox = inboxRoute as unknown as { loader: Handler };

let buyer: User;
let carrier: User;
let orderId: string;

beforeEach(async () => {
  buyer = await createTestUser({
    firstName: "Blake",
    lastName: "Quillfeather",
    phone: "(206) 555-0147",
  });
  carrier = await createAffiliate();
  await sequelize.query("UPDATE users SET first_name = 'Casey' WHERE id = :id", {
    replacements: { id: carrier.id },
  });
  const order = await createTestOrder(await createAdmin(), { vehicleLabel: "2018 Ford F-150 XLT" });
  orderId = String(order.id);
  await sequelize.query("UPDATE service_orders SET requested_by = :buyer WHERE id = :id", {
    replacements: { buyer: buyer.id, id: orderId },
  });
});

const post = async (user: User, id: string, body: string) =>
  call(
    orderPage.action,
    await requestAs(user, `/service-orders/${id}`, { form: { intent: "send", body } }),
    { id },
  );

const threadCount = async () => {
  const [{ n }] = await sequelize.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM message_threads WHERE service_order_id = :orderId",
    { replacements: { orderId }, type: QueryTypes.SELECT },
  );
  return n;
};

describe("messages about a claimed transport job", () => {
  it("the carrier writes from the job's page, the buyer reads it by first name and answers", async () => {
    await runOrderStep(carrier.id, orderId, "claim");
    const carrierPage = (await (
      await call(orderPage.loader, await requestAs(carrier, `/service-orders/${orderId}`), {
        id: orderId,
      })
    ).json()) as { thread: { id: string | null; to: string } };
    expect(carrierPage.thread).toEqual({ id: null, to: "buyer" });

    const sent = await post(carrier, orderId, "I can pick it up Tuesday morning.");
    expect(sent.status).toBe(302);
    const location = sent.headers.get("Location") ?? "";
    const threadId = /^\/messages\/(\d+)$/.exec(location)?.[1];
    expect(threadId, location).toBeTruthy();

    // the buyer's view of the same job offers the carrier, and the thread
    const buyerPage = (await (
      await call(orderPage.loader, await requestAs(buyer, `/service-orders/${orderId}`), {
        id: orderId,
      })
    ).json()) as { thread: { id: string | null; to: string } };
    expect(buyerPage.thread).toEqual({ id: threadId, to: "carrier" });

    const asBuyer = (await (
      await call(threadPage.loader, await requestAs(buyer, location), { threadId: threadId! })
    ).json()) as {
      thread: {
        otherRole: string;
        otherName: string;
        listingTitle: string;
        serviceOrderId: string;
        messages: { body: string; mine: boolean }[];
      };
    };
    expect(asBuyer.thread).toMatchObject({
      otherRole: "Carrier",
      otherName: "Casey",
      listingTitle: "2018 Ford F-150 XLT",
      serviceOrderId: orderId,
    });
    expect(asBuyer.thread.messages).toEqual([
      expect.objectContaining({ body: "I can pick it up Tuesday morning.", mine: false }),
    ]);

    // the buyer answers from the job's page too: the same one thread
    const answered = await post(buyer, orderId, "Tuesday works, thank you.");
    expect(answered.headers.get("Location")).toBe(location);
    expect(await threadCount()).toBe(1);

    const asCarrier = await call(threadPage.loader, await requestAs(carrier, location), {
      threadId: threadId!,
    });
    const carrierText = await asCarrier.text();
    expect(carrierText).toContain("Tuesday works, thank you.");
    expect(carrierText).toContain('"otherName":"Blake"');
    for (const secret of [buyer.email, "555-0147", "Quillfeather"])
      expect(carrierText).not.toContain(secret);
    const carrierInbox = await (
      await call(inbox.loader, await requestAs(carrier, "/messages"))
    ).text();
    expect(carrierInbox).toContain('"otherRole":"Buyer"');
    expect(carrierInbox).not.toContain(buyer.email);

    // the notice e-mails name the other by first name, with no e-mail address of theirs
    await sendMessageNotices();
    const mails = await sequelize.query<{ user_id: string; subject: string; text_body: string }>(
      "SELECT user_id, subject, text_body FROM mail_outbox WHERE topic = 'messages' ORDER BY id",
      { type: QueryTypes.SELECT },
    );
    const toBuyer = mails.find((mail) => mail.user_id === buyer.id);
    const toCarrier = mails.find((mail) => mail.user_id === carrier.id);
    expect(toBuyer?.subject).toBe("A new message from Casey about 2018 Ford F-150 XLT");
    expect(toCarrier?.subject).toBe("A new message from Blake about 2018 Ford F-150 XLT");
    expect(`${toCarrier?.text_body}`).not.toContain(buyer.email);
    expect(`${toBuyer?.text_body}`).not.toContain(carrier.email);
  });

  it("another carrier cannot write about the job or read its thread: 404, nothing written", async () => {
    await runOrderStep(carrier.id, orderId, "claim");
    const sent = await post(carrier, orderId, "On my way.");
    const location = sent.headers.get("Location") ?? "";
    const threadId = location.split("/").pop()!;
    const other = await createAffiliate();
    expect((await post(other, orderId, "Let me take it instead")).status).toBe(404);
    const read = await call(threadPage.loader, await requestAs(other, location), { threadId });
    expect(read.status).toBe(404);
    const reply = await call(
      threadPage.action,
      await requestAs(other, location, { form: { intent: "send", body: "hello" } }),
      { threadId },
    );
    expect(reply.status).toBe(404);
    const stranger = await createTestUser();
    expect((await post(stranger, orderId, "hi")).status).toBe(404);
    const [{ n }] = await sequelize.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM messages WHERE thread_id = :threadId",
      { replacements: { threadId }, type: QueryTypes.SELECT },
    );
    expect(n).toBe(1);
  });

  it("before a claim there is no one to write to: the buyer is refused, carriers get 404, no thread", async () => {
    const page = (await (
      await call(orderPage.loader, await requestAs(buyer, `/service-orders/${orderId}`), {
        id: orderId,
      })
    ).json()) as { thread: unknown };
    expect(page.thread).toBeNull();
    expect((await post(buyer, orderId, "Anyone?")).status).toBe(409);
    expect((await post(carrier, orderId, "I might take it")).status).toBe(404);
    expect(await threadCount()).toBe(0);
  });

  it("an empty message is refused with the form's message, nothing written", async () => {
    await runOrderStep(carrier.id, orderId, "claim");
    const refused = await post(carrier, orderId, "   ");
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Write a message");
    expect(await threadCount()).toBe(0);
  });
});
