import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { QueryTypes } from "sequelize";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { resetClock } from "~/platform/clock.server";
import { MAX_ATTEMPTS, queueMail, sendQueuedMail } from "~/platform/mail/outbox.server";
import { smtpTransport } from "~/platform/mail/transport.server";
import { unsubscribeToken } from "~/platform/mail/unsubscribe.server";
import { action, loader } from "~/routes/unsubscribe.$token";
import { createTestUser } from "../support/auth";
import { clearJobs, makeJobsDue, queuedJobs, runJobs } from "../support/jobs";

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
    subject: string;
    last_error: string | null;
  }>(
    `SELECT id, status, attempts, message_id, topic, subject, last_error
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
    await clearJobs();
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
    expect(await queuedJobs("send_mail")).toHaveLength(7);

    // The server is down: nothing is lost, every message's job waits for a later try.
    await stub.start();
    const url = stub.url();
    await stub.stop();
    await runJobs({ transport: smtpTransport(url) });
    expect((await outbox()).every((r) => r.status === "pending" && r.attempts === 1)).toBe(true);
    const waiting = await queuedJobs("send_mail");
    expect(waiting).toHaveLength(7);
    expect(waiting.every((j) => j.attempts === 1 && j.last_error)).toBe(true);
    expect(waiting.every((j) => new Date(j.run_at).getTime() > Date.now())).toBe(true);

    // Back up, but the retry is not due yet: nothing is sent.
    await stub.start();
    expect(stub.url()).toBe(url);
    await runJobs({ transport: smtpTransport(url) });
    expect(stub.received).toHaveLength(0);

    // Due: one message is refused once more (451), the rest go; three workers at once.
    await makeJobsDue("send_mail");
    stub.refuse(1);
    await Promise.all(Array.from({ length: 3 }, () => runJobs({ transport: smtpTransport(url) })));
    expect(stub.received).toHaveLength(6);
    await makeJobsDue("send_mail");
    await runJobs({ transport: smtpTransport(url) });

    const rows = await outbox();
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    expect(stub.received).toHaveLength(7);
    expect(new Set(stub.received.map((m) => m.messageId))).toEqual(
      new Set(rows.map((r) => r.message_id)),
    );
    expect(stub.received.every((m) => m.to === user.email)).toBe(true);
    expect(stub.received[0].listUnsubscribe).toMatch(/^<http:\/\/localhost:3000\/unsubscribe\//);

    // Nothing left: the jobs are done, and running the queue again sends nothing.
    expect(await queuedJobs("send_mail")).toHaveLength(0);
    await runJobs({ transport: smtpTransport(url) });
    expect(stub.received).toHaveLength(7);
  });

  it("queues nothing when the write that asked for the e-mail rolls back", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    await clearJobs();
    const user = await createTestUser();
    await expect(
      sequelize.transaction(async (transaction) => {
        await queueMail(
          { userId: user.id, topic: "alerts", subject: "Never", content: content(1) },
          transaction,
        );
        throw new Error("the write failed after queueing");
      }),
    ).rejects.toThrow("the write failed");
    expect(await outbox()).toHaveLength(0);
    expect(await queuedJobs()).toHaveLength(0);
  });

  it("gives a message up at once only when the server refuses its recipient for good", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    await clearJobs();
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
    await runJobs({ transport: badLogin });
    const waiting = await outbox();
    expect(waiting.map((r) => r.status)).toEqual(["pending", "pending"]);
    expect(waiting[0].last_error).toContain("535");
    expect(await queuedJobs("send_mail")).toHaveLength(2);

    // With the right password, the unknown recipient's message fails at once (550 to RCPT TO)
    // and the other is sent: neither job is left to try again.
    await makeJobsDue("send_mail");
    const login = smtpTransport(stub.urlWithLogin("bidyard", "secret"));
    await runJobs({ transport: login });
    const settled = await outbox();
    expect(settled.map((r) => r.status)).toEqual(["failed", "sent"]);
    expect(settled[0].last_error).toContain("550");
    expect(stub.received.map((m) => m.to)).toEqual([someone.email]);
    expect(await queuedJobs("send_mail")).toHaveLength(0);
  });

  it("retries errors with no message refusal in them, even with a 5xx code", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    await clearJobs();
    const user = await createTestUser();
    await queueMail({ userId: user.id, topic: "messages", subject: "Hello", content: content(1) });
    let tries = 0;
    for (const code of ["EAUTH", "ECONNECTION", "EGREETING", "ETIMEDOUT", "EPROTOCOL"]) {
      await makeJobsDue("send_mail");
      const transport = {
        sendMail: async () => {
          throw Object.assign(new Error(`554 ${code}`), { code, responseCode: 554 });
        },
      };
      await runJobs({ transport });
      tries += 1;
      const [job] = await queuedJobs("send_mail");
      expect(job?.attempts, code).toBe(tries);
    }
    // A refused sender (MAIL FROM) is our own setting, and 503 is a session state: retried too.
    for (const [command, responseCode] of [
      ["MAIL FROM", 553],
      ["RCPT TO", 503],
    ] as const) {
      await makeJobsDue("send_mail");
      const transport = {
        sendMail: async () => {
          throw Object.assign(new Error(`${responseCode} refused`), {
            code: "EENVELOPE",
            command,
            responseCode,
          });
        },
      };
      await runJobs({ transport });
      tries += 1;
      const [job] = await queuedJobs("send_mail");
      expect(job?.attempts, command).toBe(tries);
    }
    expect((await outbox())[0].status).toBe("pending");
  });

  it("keeps trying through an outage of two days and more before giving a message up", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    await clearJobs();
    const user = await createTestUser();
    await queueMail({ userId: user.id, topic: "alerts", subject: "Hello", content: content(1) });
    const down = {
      sendMail: async () => {
        throw Object.assign(new Error("Connection closed"), { code: "ECONNECTION" });
      },
    };
    // the waits the queue put between the tries, read from each job's next run time
    let waited = 0;
    for (let tries = 1; tries <= MAX_ATTEMPTS; tries++) {
      const [row] = await outbox();
      expect(row.status, `before try ${tries}`).toBe("pending");
      await makeJobsDue("send_mail");
      const before = Date.now();
      await runJobs({ transport: down });
      const [job] = await queuedJobs("send_mail");
      if (tries < MAX_ATTEMPTS) waited += new Date(job.run_at).getTime() - before;
    }
    const [row] = await outbox();
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    expect(await queuedJobs("send_mail")).toHaveLength(0);
    expect(waited / 3_600_000).toBeGreaterThan(48);
  });

  it("sends a message whose worker died mid-send again, with the same Message-ID", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    await clearJobs();
    stub.received.length = 0;
    await stub.start();
    const user = await createTestUser();
    const id = await queueMail({
      userId: user.id,
      topic: "alerts",
      subject: "Once",
      content: content(1),
    });
    // A worker took the job and handed the message to the server, then died before it could
    // say so: the row says sending, the job is still there (its lock freed by another worker).
    const transport = smtpTransport(stub.url());
    await sendQueuedMail(id!, { attempt: 1, maxAttempts: MAX_ATTEMPTS, transport });
    await sequelize.query("UPDATE mail_outbox SET status = 'sending', sent_at = NULL");
    await runJobs({ transport });
    const [row] = await outbox();
    expect(row.status).toBe("sent");
    // Two deliveries of one message: the same Message-ID, so the mailbox keeps one.
    expect(stub.received.map((m) => m.messageId)).toEqual([row.message_id, row.message_id]);
    // Once it is recorded as sent, a job run again sends nothing.
    await sequelize.query(
      "SELECT graphile_worker.add_job('send_mail', json_build_object('id', :id::text))",
      {
        replacements: { id },
      },
    );
    await runJobs({ transport });
    expect(stub.received).toHaveLength(2);
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

describe("transport e-mails in event order (record 3534)", () => {
  it("a job's Delivered waits while its Transport claimed is retried, then follows it", async () => {
    await sequelize.query("DELETE FROM mail_outbox");
    await clearJobs();
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
    await runJobs({ transport: smtpTransport(url) });
    expect(stub.received.map((m) => m.subject)).toEqual(["Other claimed", "An alert"]);
    // still waiting before the retry is due, with no try of its own counted
    await runJobs({ transport: smtpTransport(url) });
    expect(stub.received).toHaveLength(2);
    const delivered = (await outbox()).find((r) => r.subject === "Delivered");
    expect(delivered).toMatchObject({ status: "pending", attempts: 0 });
    // held back, not failed: its job has no error and no try counted (nothing logged as an error)
    const held = (await queuedJobs("send_mail")).filter(
      (job) => String(job.payload.id) === String(delivered!.id),
    );
    expect(held.map((job) => [job.attempts, job.last_error])).toEqual([[0, null]]);

    await makeJobsDue("send_mail");
    await runJobs({ transport: smtpTransport(url) });
    await makeJobsDue("send_mail");
    await runJobs({ transport: smtpTransport(url) });
    expect(stub.received.map((m) => m.subject)).toEqual([
      "Other claimed",
      "An alert",
      "Transport claimed",
      "Delivered",
    ]);
  });
});
