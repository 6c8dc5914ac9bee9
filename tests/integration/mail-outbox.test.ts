import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { QueryTypes } from "sequelize";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { queueMail, sendDueMail } from "~/platform/mail/outbox.server";
import { smtpTransport } from "~/platform/mail/transport.server";
import { unsubscribeToken } from "~/platform/mail/unsubscribe.server";
import { action, loader } from "~/routes/unsubscribe.$token";
import { createTestUser } from "../support/auth";

type Received = { messageId: string; to: string; subject: string; listUnsubscribe: string };

/** A real SMTP server that can be stopped (an outage) and told to refuse a message once (451). */
function smtpStub() {
  const received: Received[] = [];
  let refuseNext = 0;
  let server: SMTPServer | null = null;
  let port = 0;
  const start = async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream).then((mail) => {
          if (refuseNext > 0) {
            refuseNext -= 1;
            const error = Object.assign(new Error("try again later"), { responseCode: 451 });
            return callback(error);
          }
          received.push({
            messageId: mail.messageId ?? "",
            to: session.envelope.rcptTo[0].address,
            subject: mail.subject ?? "",
            listUnsubscribe:
              mail.headerLines
                .find((h) => h.key === "list-unsubscribe")
                ?.line.replace(/^[^:]*:\s*/, "") ?? "",
          });
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", () => resolve()));
    port = (server!.server.address() as AddressInfo).port;
  };
  const stop = () =>
    new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  return {
    received,
    start,
    stop,
    url: () => `smtp://127.0.0.1:${port}`,
    refuse: (count: number) => (refuseNext = count),
  };
}

async function outbox() {
  return sequelize.query<{
    id: string;
    status: string;
    attempts: number;
    message_id: string;
    topic: string;
  }>("SELECT id, status, attempts, message_id, topic FROM mail_outbox ORDER BY id", {
    type: QueryTypes.SELECT,
  });
}

const content = (n: number) => ({
  paragraphs: [`Alert number ${n}.`],
  action: { label: "Open", url: "http://localhost:3000/auctions" },
});

const stub = smtpStub();
afterEach(() => resetClock());
afterAll(() => stub.stop());

describe("mail outbox", () => {
  it("keeps every message through an SMTP outage and sends each exactly once", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const clock = fixedClock("2026-11-23T12:00:00Z");
    setClock(clock);
    const user = await createTestUser();
    for (let n = 1; n <= 6; n++) {
      await queueMail({
        userId: user.id,
        topic: "alerts",
        subject: `Alert ${n}`,
        content: content(n),
      });
    }
    // A dedupe key queues one message however often it is asked for.
    await queueMail({
      userId: user.id,
      topic: "alerts",
      subject: "Once",
      content: content(7),
      dedupeKey: "k1",
    });
    await queueMail({
      userId: user.id,
      topic: "alerts",
      subject: "Once",
      content: content(7),
      dedupeKey: "k1",
    });
    expect(await outbox()).toHaveLength(7);

    // The server is down: nothing is lost, every row waits for a later try.
    await stub.start();
    const url = stub.url();
    await stub.stop();
    const down = await sendDueMail({ transport: smtpTransport(url) });
    expect(down).toEqual({ sent: 0, retrying: 7, failed: 0 });
    expect((await outbox()).every((r) => r.status === "pending" && r.attempts === 1)).toBe(true);

    // Back up, but the retry is not due yet.
    await stub.start();
    expect(stub.url()).toBe(url);
    expect((await sendDueMail({ transport: smtpTransport(url) })).sent).toBe(0);

    // Due: one message is refused once more (451), the rest go; four workers at once.
    clock.advance(31_000);
    stub.refuse(1);
    const reports = await Promise.all(
      Array.from({ length: 4 }, () => sendDueMail({ transport: smtpTransport(url), limit: 2 })),
    );
    const firstRound = reports.reduce((sum, r) => sum + r.sent, 0);
    clock.advance(10 * 60_000);
    while ((await sendDueMail({ transport: smtpTransport(url) })).sent > 0) clock.advance(60_000);

    const rows = await outbox();
    expect(firstRound).toBeGreaterThanOrEqual(5);
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    expect(stub.received).toHaveLength(7);
    expect(new Set(stub.received.map((m) => m.messageId))).toEqual(
      new Set(rows.map((r) => r.message_id)),
    );
    expect(stub.received.every((m) => m.to === user.email)).toBe(true);
    expect(stub.received[0].listUnsubscribe).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\//);

    // Nothing left: another tick sends nothing again.
    clock.advance(24 * 60 * 60_000);
    expect((await sendDueMail({ transport: smtpTransport(url) })).sent).toBe(0);
    expect(stub.received).toHaveLength(7);
  });

  it("gives a message up at once when the server refuses it for good (5xx)", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const user = await createTestUser({ email: "nobody@bidyard.test" });
    await queueMail({ userId: user.id, topic: "messages", subject: "Hello", content: content(1) });
    const transport = {
      sendMail: async () => {
        throw Object.assign(new Error("550 no such user"), { responseCode: 550 });
      },
    };
    expect(await sendDueMail({ transport })).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await outbox())[0].status).toBe("failed");
  });
});

function routeArgs(token: string, init?: { body?: string; origin?: string }) {
  const headers = new Headers();
  if (init?.body !== undefined) {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    if (init.origin) headers.set("Origin", init.origin);
  }
  const request = new Request(`http://localhost:3000/unsubscribe/${token}`, {
    method: init?.body !== undefined ? "POST" : "GET",
    headers,
    body: init?.body,
  });
  return { request, params: { token }, context: {} };
}

async function statusOf(promise: Promise<unknown>) {
  try {
    const result = await promise;
    return (result as { init?: ResponseInit } | null)?.init?.status ?? 200;
  } catch (error) {
    if (error instanceof Response) return error.status;
    throw error;
  }
}

describe("one-click unsubscribe", () => {
  it("works without signing in, from the mail program's own POST, and stops that topic", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const user = await createTestUser();
    await queueMail({ userId: user.id, topic: "alerts", subject: "Waiting", content: content(1) });
    await queueMail({ userId: user.id, topic: "messages", subject: "Other", content: content(2) });
    const token = unsubscribeToken(user.id, "alerts");

    expect(await statusOf(loader(routeArgs(token)))).toBe(200);
    // RFC 8058: the provider posts "List-Unsubscribe=One-Click" from its own servers.
    const posted = await statusOf(
      action(
        routeArgs(token, { body: "List-Unsubscribe=One-Click", origin: "https://mail.example" }),
      ),
    );
    expect(posted).toBe(200);

    const rows = await outbox();
    expect(rows.find((r) => r.topic === "alerts")?.status).toBe("cancelled");
    expect(rows.find((r) => r.topic === "messages")?.status).toBe("pending");
    expect(
      await queueMail({ userId: user.id, topic: "alerts", subject: "Later", content: content(3) }),
    ).toBeNull();
    expect(
      await queueMail({
        userId: user.id,
        topic: "messages",
        subject: "Still",
        content: content(4),
      }),
    ).not.toBeNull();

    // Undo works the same way.
    expect(await statusOf(action(routeArgs(token, { body: "intent=resubscribe" })))).toBe(200);
    expect(
      await queueMail({ userId: user.id, topic: "alerts", subject: "Again", content: content(5) }),
    ).not.toBeNull();
  });

  it("refuses a tampered or made-up token with a 400 and writes nothing", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const token = unsubscribeToken(user.id, "alerts");
    const [, , signature] = token.split(".");
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    const forged = [
      flipped,
      `${other.id}.alerts.${signature}`,
      `${user.id}.messages.${signature}`,
      `${user.id}.alerts`,
      "",
      "x".repeat(5000),
    ];
    for (const bad of forged) {
      expect(await statusOf(loader(routeArgs(bad))), bad).toBe(400);
      expect(
        await statusOf(action(routeArgs(bad, { body: "List-Unsubscribe=One-Click" }))),
        bad,
      ).toBe(400);
    }
    const [{ count }] = await sequelize.query<{ count: string }>(
      "SELECT count(*) FROM mail_unsubscribes WHERE user_id IN (:ids)",
      { replacements: { ids: [user.id, other.id] }, type: QueryTypes.SELECT },
    );
    expect(Number(count)).toBe(0);
  });
});
