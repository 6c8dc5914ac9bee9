import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { QueryTypes } from "sequelize";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import {
  CLAIM_MS,
  MAX_ATTEMPTS,
  queueMail,
  sendDueMail,
  type SendReport,
} from "~/platform/mail/outbox.server";
import { smtpTransport, type MailTransport } from "~/platform/mail/transport.server";
import { unsubscribeToken } from "~/platform/mail/unsubscribe.server";
import { action, loader } from "~/routes/unsubscribe.$token";
import { createTestUser } from "../support/auth";

type Received = { messageId: string; to: string; subject: string; listUnsubscribe: string };

/**
 * A real SMTP server that can be stopped (an outage), told to refuse a message once (451), that
 * refuses mail to the addresses in `unknownRecipients` for good (550) and any login but
 * "bidyard"/"secret" (535).
 */
function smtpStub() {
  const received: Received[] = [];
  const unknownRecipients = new Set<string>();
  let refuseNext = 0;
  let server: SMTPServer | null = null;
  let port = 0;
  const start = async () => {
    if (server?.server.listening) return;
    server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onAuth(auth, session, callback) {
        if (auth.username === "bidyard" && auth.password === "secret")
          return callback(null, { user: auth.username });
        callback(new Error("Invalid username or password"));
      },
      onRcptTo(address, session, callback) {
        if (!unknownRecipients.has(address.address)) return callback();
        callback(Object.assign(new Error("No such user here"), { responseCode: 550 }));
      },
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
    urlWithLogin: (user: string, password: string) =>
      `smtp://${user}:${password}@127.0.0.1:${port}`,
    refuse: (count: number) => (refuseNext = count),
    unknownRecipients,
  };
}

async function outbox() {
  return sequelize.query<{
    id: string;
    status: string;
    attempts: number;
    message_id: string;
    topic: string;
    next_attempt_at: Date;
    last_error: string | null;
  }>(
    `SELECT id, status, attempts, message_id, topic, next_attempt_at, last_error
       FROM mail_outbox ORDER BY id`,
    { type: QueryTypes.SELECT },
  );
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

  it("gives a message up at once only when the server refuses its recipient for good", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    stub.received.length = 0;
    await stub.start();
    const nobody = await createTestUser({ email: "nobody@bidyard.test" });
    const someone = await createTestUser();
    stub.unknownRecipients.add("nobody@bidyard.test");
    await queueMail({
      userId: nobody.id,
      topic: "messages",
      subject: "Hello",
      content: content(1),
    });
    await queueMail({ userId: someone.id, topic: "messages", subject: "Hi", content: content(2) });

    // A wrong password is refused with a 5xx too (535), but says nothing about the messages:
    // both wait for a later try.
    const badLogin = smtpTransport(stub.urlWithLogin("bidyard", "wrong"));
    expect(await sendDueMail({ transport: badLogin })).toEqual({
      sent: 0,
      retrying: 2,
      failed: 0,
    });
    const waiting = await outbox();
    expect(waiting.map((r) => r.status)).toEqual(["pending", "pending"]);
    expect(waiting[0].last_error).toContain("535");

    // With the right password, the unknown recipient's message fails at once (550 to RCPT TO)
    // and the other is sent.
    await sequelize.query("UPDATE mail_outbox SET next_attempt_at = now() - interval '1 minute'");
    const login = smtpTransport(stub.urlWithLogin("bidyard", "secret"));
    expect(await sendDueMail({ transport: login })).toEqual({ sent: 1, retrying: 0, failed: 1 });
    const settled = await outbox();
    expect(settled.map((r) => r.status)).toEqual(["failed", "sent"]);
    expect(settled[0].last_error).toContain("550");
    expect(stub.received.map((m) => m.to)).toEqual([someone.email]);
  });

  it("retries errors with no message refusal in them, even with a 5xx code", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const user = await createTestUser();
    await queueMail({ userId: user.id, topic: "messages", subject: "Hello", content: content(1) });
    for (const code of ["EAUTH", "ECONNECTION", "EGREETING", "ETIMEDOUT", "EPROTOCOL"]) {
      await sequelize.query("UPDATE mail_outbox SET next_attempt_at = now() - interval '1 minute'");
      const transport = {
        sendMail: async () => {
          throw Object.assign(new Error(`554 ${code}`), { code, responseCode: 554 });
        },
      };
      expect(await sendDueMail({ transport }), code).toEqual({ sent: 0, retrying: 1, failed: 0 });
    }
    // A refused sender (MAIL FROM) is our own setting, and 503 is a session state: retried too.
    for (const [command, responseCode] of [
      ["MAIL FROM", 553],
      ["RCPT TO", 503],
    ] as const) {
      await sequelize.query("UPDATE mail_outbox SET next_attempt_at = now() - interval '1 minute'");
      const transport = {
        sendMail: async () => {
          throw Object.assign(new Error(`${responseCode} refused`), {
            code: "EENVELOPE",
            command,
            responseCode,
          });
        },
      };
      expect(await sendDueMail({ transport }), command).toEqual({
        sent: 0,
        retrying: 1,
        failed: 0,
      });
    }
    expect((await outbox())[0].status).toBe("pending");
  });

  it("keeps trying through an outage of about two days before giving a message up", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const clock = fixedClock("2026-11-23T12:00:00Z");
    setClock(clock);
    const start = clock.now().getTime();
    const user = await createTestUser();
    await queueMail({ userId: user.id, topic: "alerts", subject: "Hello", content: content(1) });
    const down = {
      sendMail: async () => {
        throw Object.assign(new Error("Connection closed"), { code: "ECONNECTION" });
      },
    };
    let lastTry = start;
    for (let tries = 1; tries <= MAX_ATTEMPTS; tries++) {
      const [row] = await outbox();
      expect(row.status, `before try ${tries}`).toBe("pending");
      clock.set(row.next_attempt_at);
      lastTry = clock.now().getTime();
      await sendDueMail({ transport: down });
    }
    const [row] = await outbox();
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    const hours = (lastTry - start) / 3_600_000;
    expect(hours).toBeGreaterThan(47);
    expect(hours).toBeLessThan(50);
  });

  it("never sends a row twice when a slow batch outlives its claim and another worker takes it", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const clock = fixedClock("2026-11-23T12:00:00Z");
    setClock(clock);
    const claimEnds = clock.now().getTime() + CLAIM_MS;
    const user = await createTestUser();
    for (let n = 1; n <= 4; n++)
      await queueMail({ userId: user.id, topic: "alerts", subject: `A${n}`, content: content(n) });

    const sent: string[] = [];
    let other: SendReport | null = null;
    const fast: MailTransport = {
      sendMail: async (mail) => {
        sent.push(String(mail.messageId));
      },
    };
    // Each send takes 50 s, the most the transport's timeouts allow. During the third, the
    // batch's first claim has run out and another worker's tick comes.
    const slow: MailTransport = {
      sendMail: async (mail) => {
        sent.push(String(mail.messageId));
        clock.advance(50_000);
        if (!other && clock.now().getTime() > claimEnds)
          other = await sendDueMail({ transport: fast });
      },
    };
    const first = await sendDueMail({ transport: slow });

    expect(other).not.toBeNull();
    expect(first.sent + other!.sent).toBe(4);
    expect(sent).toHaveLength(4);
    expect(new Set(sent).size).toBe(4);
    const rows = await outbox();
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    expect(new Set(sent)).toEqual(new Set(rows.map((r) => r.message_id)));
  });

  it("leaves a row that another worker took over to that worker, even when its own send fails", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const clock = fixedClock("2026-11-23T12:00:00Z");
    setClock(clock);
    const user = await createTestUser();
    await queueMail({ userId: user.id, topic: "alerts", subject: "Once", content: content(1) });

    const delivered: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const secondStarted = new Promise<void>((resolve) => (started = resolve));
    // The second worker's send is held open until the test lets it finish.
    const held: MailTransport = {
      sendMail: async (mail) => {
        started();
        await released;
        delivered.push(String(mail.messageId));
      },
    };
    let second: Promise<SendReport> | null = null;
    // The first worker's send hangs past its claim (a server that drips its replies), the row
    // is taken over, then the first send fails.
    const hanging: MailTransport = {
      sendMail: async () => {
        clock.advance(CLAIM_MS + 1_000);
        second = sendDueMail({ transport: held });
        await secondStarted;
        throw Object.assign(new Error("Connection closed"), { code: "ECONNECTION" });
      },
    };
    expect(await sendDueMail({ transport: hanging })).toEqual({
      sent: 0,
      retrying: 1,
      failed: 0,
    });
    // The failed first send did not put the row back: a third worker finds nothing to send.
    const third: string[] = [];
    const fast: MailTransport = {
      sendMail: async (mail) => {
        third.push(String(mail.messageId));
      },
    };
    expect((await sendDueMail({ transport: fast })).sent).toBe(0);
    release();
    expect((await second!).sent).toBe(1);
    expect(third).toEqual([]);
    expect(delivered).toHaveLength(1);
    expect((await outbox())[0].status).toBe("sent");
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

describe("transport e-mails in event order (record 3534)", () => {
  it("a job's Delivered waits while its Transport claimed is retried, then follows it", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    const clock = fixedClock("2026-11-28T12:00:00Z");
    setClock(clock);
    const user = await createTestUser();
    const other = await createTestUser();
    await queueMail({
      userId: user.id,
      topic: "transport",
      subject: "Transport claimed",
      content: content(1),
    });
    await queueMail({
      userId: user.id,
      topic: "transport",
      subject: "Delivered",
      content: content(2),
    });
    // another person's mail and another topic are not held back
    await queueMail({
      userId: other.id,
      topic: "transport",
      subject: "Other claimed",
      content: content(3),
    });
    await queueMail({ userId: user.id, topic: "alerts", subject: "An alert", content: content(4) });
    await stub.start();
    const url = stub.url();
    stub.received.length = 0;

    // the first message is refused once (451): the second of that job waits for it
    stub.refuse(1);
    expect(await sendDueMail({ transport: smtpTransport(url) })).toEqual({
      sent: 2,
      retrying: 1,
      failed: 0,
    });
    expect(stub.received.map((m) => m.subject)).toEqual(["Other claimed", "An alert"]);
    // still waiting before the retry is due, with no try counted against it
    expect((await sendDueMail({ transport: smtpTransport(url) })).sent).toBe(0);
    const delivered = (await outbox()).find((r) => r.topic === "transport" && r.attempts === 0);
    expect(delivered?.status).toBe("pending");

    clock.advance(31_000);
    expect((await sendDueMail({ transport: smtpTransport(url) })).sent).toBe(2);
    expect(stub.received.map((m) => m.subject)).toEqual([
      "Other claimed",
      "An alert",
      "Transport claimed",
      "Delivered",
    ]);
  });
});

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
