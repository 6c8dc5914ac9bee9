// The job worker process (server/jobs.ts, docs/decisions/3561) against the production build: the
// web process starts no periodic work; the worker closes a lot on time and its "You won" reaches
// the mail server within moments, even while a thousand e-mails wait; a worker killed with -9
// mid-send has its job run again by another, the e-mail delivered once; two workers never run
// one job twice; PostgreSQL down for a minute loses no job and the same worker resumes.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import fs from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import pg from "pg";
import { QueryTypes } from "sequelize";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { resetEnvForTests } from "~/platform/env.server";
import { placeBid } from "../support/bids";
import { startLocalCluster, type LocalCluster } from "../../db/postgres";
import { createTestUser } from "../support/auth";
import { freePort } from "../support/cluster";
import { createDatabase, migrateDatabase } from "../support/databases";
import { createLots } from "../support/faults";
import { ensureBuilt, startApp, waitFor200 } from "../support/app-process";
import { createTestLot } from "../support/lots";
import { waitFor } from "../support/wait";

const select = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

type Received = { messageId: string; subject: string; at: number };

/**
 * A mail server that records each message it takes (the bulk ones a little slowly, as a real
 * server would), and holds those whose subject matches.
 */
function smtpStub() {
  const received: Received[] = [];
  let hold: RegExp | null = null;
  let holding = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        const subject = mail.subject ?? "";
        // never answered: the sender is stuck mid-send until it dies
        if (hold?.test(subject)) return void (holding += 1);
        const take = () => {
          received.push({ messageId: mail.messageId ?? "", subject, at: Date.now() });
          callback();
        };
        // a fixed wait on purpose: a real mail server takes a moment per message
        if (subject.startsWith("Bulk")) setTimeout(take, 10);
        else take();
      }, callback);
    },
  });
  return {
    received,
    holdSubjects: (pattern: RegExp | null) => (hold = pattern),
    holding: () => holding,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
      return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const stub = smtpStub();
let smtpUrl = "";
const watchDir = mkdtempSync(path.join(tmpdir(), "bidyard-timers-"));
const workers: ChildProcess[] = [];

function baseEnv(port = 3000) {
  return {
    NODE_ENV: "production",
    DATABASE_URL: process.env.DATABASE_URL!,
    SESSION_SECRET: "s".repeat(40),
    APP_URL: `http://localhost:${port}`,
    OIDC_ISSUER: "https://id.bidyard.example",
    OIDC_CLIENT_ID: "bidyard",
    OIDC_CLIENT_SECRET: "client-secret",
    ALLOW_TEST_PAYMENTS: "true",
    FILE_STORAGE: "local",
    SMTP_URL: smtpUrl,
  };
}

/** Starts `node build/server/jobs.js` as production runs it; resolves once it takes jobs. */
async function startWorker(extra: Record<string, string> = {}) {
  let output = "";
  const proc = spawn(
    "node",
    ["--import", "./tests/support/timer-watch.mjs", "build/server/jobs.js"],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...baseEnv(),
        LOG_FORMAT: "json",
        ...extra,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  workers.push(proc);
  proc.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  proc.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  await waitFor(
    () => {
      if (proc.exitCode !== null) throw new Error(`the worker exited:\n${output}`);
      return output.includes("jobs: worker started");
    },
    { what: "the worker's start line", timeout: 30_000, detail: () => output },
  );
  return { proc, output: () => output };
}

function stopWorker(proc: ChildProcess, signal: NodeJS.Signals = "SIGTERM") {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once("exit", () => resolve());
    proc.kill(signal);
  });
}

function waitUntil(what: string, check: () => Promise<boolean> | boolean, ms = 30_000) {
  return waitFor(check, { what, timeout: ms, every: 20 });
}

/**
 * Waits until no job `where` picks (over the queue's jobs `j` and their tasks `t`) is left: a
 * done job leaves the queue, so nothing more can run, twice or at all.
 */
function jobsDone(where: string, db?: pg.Client) {
  const sql = `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
                 JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE ${where}`;
  return waitUntil(`no job left where ${where}`, async () => {
    const rows = db ? (await db.query<{ n: number }>(sql)).rows : await select<{ n: number }>(sql);
    return rows[0].n === 0;
  });
}

/** `count` e-mails to `userId`, queued at once with their send jobs, as queueMail would. */
async function queueBulkMail(userId: string, count: number, subject: string) {
  await sequelize.query(
    `WITH rows AS (
       INSERT INTO mail_outbox (user_id, to_address, topic, subject, text_body, html_body,
                                message_id)
       SELECT u.id, u.email, 'alerts', :subject || ' ' || n, 'text', '<p>html</p>',
              '<bulk-' || gen_random_uuid() || '@bidyard.test>'
         FROM users u, generate_series(1, :count) n WHERE u.id = :userId
       RETURNING id)
     SELECT graphile_worker.add_job('send_mail', json_build_object('id', id::text),
              max_attempts => 21, job_key => 'send_mail:' || id)
       FROM rows`,
    { replacements: { userId, count, subject } },
  );
}

beforeAll(async () => {
  resetEnvForTests();
  await ensureBuilt();
  smtpUrl = await stub.start();
}, 300_000);

afterEach(async () => {
  await Promise.all(workers.splice(0).map((proc) => stopWorker(proc, "SIGKILL")));
  stub.holdSubjects(null);
  await sequelize.query("DELETE FROM job_workers");
});

afterAll(async () => {
  await stub.stop();
  rmSync(watchDir, { recursive: true, force: true });
});

describe("the web process", () => {
  it("starts no periodic work of its own; the worker does (the watch sees its heartbeat)", async () => {
    const file = path.join(watchDir, "web.jsonl");
    const port = await freePort();
    const app = startApp({ ...baseEnv(port), WEB_CONCURRENCY: "2", TIMER_WATCH_FILE: file }, port, [
      "--import",
      "./tests/support/timer-watch.mjs",
    ]);
    try {
      await waitFor200(`${app.url}/healthz`, app, 60_000);
      // a page served: whatever a request starts is not periodic work either
      await (await fetch(`${app.url}/auctions`)).text();
      // a fixed wait on purpose: an absence (no interval started later by what the page set
      // going) can only be watched for a while
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await app.stop();
    }
    const webTimers = readFileSync(file, { flag: "a+" }).toString().trim();
    expect(webTimers, "setInterval calls from the app in the web process").toBe("");

    const workerFile = path.join(watchDir, "worker.jsonl");
    const worker = await startWorker({ TIMER_WATCH_FILE: workerFile });
    await stopWorker(worker.proc);
    expect(readFileSync(workerFile, "utf8")).toContain("build/index.js");
  }, 120_000);
});

describe("the job worker", () => {
  // The figures (close delay, end to SMTP) are printed, not asserted: this machine's load says
  // nothing of the code. What is asserted is the order: a close job and a "You won" go before a
  // thousand alerts queued ahead of them.
  it("closes a lot at its end and mails the winner ahead of 1,000 e-mails already waiting", async () => {
    const winner = await createTestUser({ verified: true, deposit: "5000.00" });
    const bulk = await createTestUser();
    await startWorker();

    // Two lots with a bid each (a bid this close to the end would extend it: soft close), then
    // their ends moved close: idle ends in 1.5 s; busy in 4 s, just after a thousand e-mails
    // are queued. Moving the end moves each lot's close job (the trigger).
    const idle = await createTestLot();
    const busy = await createTestLot();
    await placeBid(winner.id, { lotId: idle.id, amount: "300", isProxy: false });
    await placeBid(winner.id, { lotId: busy.id, amount: "400", isProxy: false });
    await sequelize.query(
      `UPDATE lots SET ends_at = now() + CASE WHEN id = :idle THEN interval '1.5 seconds'
                                           ELSE interval '4 seconds' END
        WHERE id IN (:idle, :busy)`,
      { replacements: { idle: idle.id, busy: busy.id } },
    );
    await waitUntil("the idle lot's close", async () => {
      const [lot] = await select<{ status: string }>("SELECT status FROM lots WHERE id = :id", {
        id: idle.id,
      });
      return lot.status !== "active";
    });
    await queueBulkMail(bulk.id, 1_000, "Bulk");

    const closeDelays: number[] = [];
    const mailDelays: number[] = [];
    const wonIndexes: number[] = [];
    for (const lot of [idle, busy]) {
      await waitUntil(`lot ${lot.id} closed`, async () => {
        const [row] = await select<{ closed_at: Date | null }>(
          "SELECT closed_at FROM lots WHERE id = :id",
          { id: lot.id },
        );
        return row.closed_at !== null;
      });
      const [row] = await select<{ ends_at: Date; closed_at: Date; status: string }>(
        "SELECT ends_at, closed_at, status FROM lots WHERE id = :id",
        { id: lot.id },
      );
      expect(row.status).toBe("sold");
      closeDelays.push(new Date(row.closed_at).getTime() - new Date(row.ends_at).getTime());
      // the lots close in turn: the newest "You won" is this lot's
      const [won] = await select<{ message_id: string }>(
        `SELECT message_id FROM mail_outbox WHERE user_id = :userId AND topic = 'won'
          ORDER BY id DESC LIMIT 1`,
        { userId: winner.id },
      );
      await waitUntil("the won e-mail", () =>
        stub.received.some((m) => m.messageId === won.message_id),
      );
      const mail = stub.received.find((m) => m.messageId === won.message_id)!;
      mailDelays.push(mail.at - new Date(row.ends_at).getTime());
      wonIndexes.push(stub.received.indexOf(mail));
    }
    console.log(
      `job worker: close delay idle ${closeDelays[0]} ms, busy ${closeDelays[1]} ms; ` +
        `won e-mail after the end idle ${mailDelays[0]} ms, busy ${mailDelays[1]} ms`,
    );
    // never before its end
    for (const delay of closeDelays) expect(delay).toBeGreaterThanOrEqual(0);
    // the busy lot closed, and its winner was mailed, while the alerts were still going out
    const [{ sent }] = await select<{ sent: number }>(
      `SELECT count(*)::int AS sent FROM mail_outbox m, lots l
        WHERE l.id = :busy AND m.subject LIKE 'Bulk %' AND m.sent_at <= l.closed_at`,
      { busy: busy.id },
    );
    expect(sent).toBeLessThan(1_000);
    await waitUntil(
      "the bulk mail",
      () => stub.received.filter((m) => m.subject.startsWith("Bulk")).length === 1_000,
      120_000,
    );
    // the busy lot's "You won" reached the server before the last of the alerts queued ahead
    const lastBulk = stub.received.map((m) => m.subject.startsWith("Bulk")).lastIndexOf(true);
    expect(wonIndexes[1]).toBeLessThan(lastBulk);
  }, 180_000);

  it("runs a job again when its worker is killed with -9 mid-send, and the e-mail arrives once", async () => {
    const user = await createTestUser();
    stub.holdSubjects(/^Stuck/);
    const first = await startWorker({ JOB_HEARTBEAT_MS: "500" });
    await queueBulkMail(user.id, 1, "Stuck");
    await waitUntil("the first worker mid-send", () => stub.holding() > 0);
    await stopWorker(first.proc, "SIGKILL");
    stub.holdSubjects(null);
    const [job] = await select<{ locked_by: string | null; attempts: number }>(
      "SELECT locked_by, attempts FROM graphile_worker.jobs WHERE task_identifier = 'send_mail'",
    );
    // still locked by the dead worker
    expect(job.locked_by).not.toBeNull();

    // another worker sees the first stopped beating and frees its job, then sends it
    await startWorker({ JOB_HEARTBEAT_MS: "500" });
    await waitUntil("the resent e-mail", () => stub.received.some((m) => m.subject === "Stuck 1"));
    await waitUntil("the outbox row sent", async () => {
      const [row] = await select<{ status: string }>(
        "SELECT status FROM mail_outbox WHERE subject = 'Stuck 1'",
      );
      return row.status === "sent";
    });
    // and its job is done (it leaves the queue once the worker records it done): nothing is left
    // that could send it again
    await jobsDone(
      "j.key IN (SELECT 'send_mail:' || id FROM mail_outbox WHERE subject = 'Stuck 1')",
    );
    expect(stub.received.filter((m) => m.subject === "Stuck 1")).toHaveLength(1);
  }, 120_000);

  it("two workers at once run each job once", async () => {
    const user = await createTestUser();
    await Promise.all([startWorker(), startWorker()]);
    await queueBulkMail(user.id, 300, "Pair");
    await waitUntil(
      "the pair's mail",
      async () => {
        const [row] = await select<{ n: number }>(
          "SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE 'Pair %' AND status = 'sent'",
        );
        return row.n === 300;
      },
      60_000,
    );
    // every job done: nothing is left that could send one twice
    await jobsDone(
      "j.key IN (SELECT 'send_mail:' || id FROM mail_outbox WHERE subject LIKE 'Pair %')",
    );
    const pair = stub.received.filter((m) => m.subject.startsWith("Pair "));
    expect(pair).toHaveLength(300);
    expect(new Set(pair.map((m) => m.messageId)).size).toBe(300);
  }, 120_000);
});

// PostgreSQL stopped for a minute under a running worker (JOB_OUTAGE_SECONDS shortens it for a
// local run; CI runs the full 60 s). Its own cluster, so the other tests' database stays up.
const OUTAGE_SECONDS = Number(process.env.JOB_OUTAGE_SECONDS ?? 60) || 60;

describe("the job worker across a database outage", () => {
  let cluster: LocalCluster | null = null;
  let dataDir = "";
  let url = "";

  beforeAll(async () => {
    dataDir = path.join(tmpdir(), `bidyard-jobs-outage-${process.pid}`);
    await fs.rm(dataDir, { recursive: true, force: true });
    cluster = await startLocalCluster({
      dataDir,
      port: await freePort(),
      tuning: ["-c fsync=off"],
    });
    await createDatabase(cluster.urlFor("postgres"), "bidyard");
    url = cluster.urlFor("bidyard");
    await migrateDatabase(url);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
    if (dataDir) await fs.rm(cluster?.dataDir ?? dataDir, { recursive: true, force: true });
  });

  it(
    `loses no job while PostgreSQL is down for ${OUTAGE_SECONDS} s: the same worker sends every e-mail once and closes the lot`,
    async () => {
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      const {
        rows: [user],
      } = await db.query<{ id: string }>(
        "INSERT INTO users (email, first_name) VALUES ('outage@bidyard.test', 'Outage') RETURNING id",
      );
      const worker = await startWorker({ DATABASE_URL: url });
      // Waiting jobs, all due while the database is down: 20 e-mails due in 2 s and a lot
      // ending in 4 s (its close job is queued by the lots trigger).
      await db.query(
        `WITH rows AS (
           INSERT INTO mail_outbox (user_id, to_address, topic, subject, text_body, html_body,
                                    message_id)
           SELECT u.id, u.email, 'alerts', 'Outage ' || n, 'text', '<p>html</p>',
                  '<outage-' || gen_random_uuid() || '@bidyard.test>'
             FROM users u, generate_series(1, 20) n WHERE u.id = $1
           RETURNING id)
         SELECT graphile_worker.add_job('send_mail', json_build_object('id', id::text),
                  run_at => now() + interval '2 seconds', max_attempts => 21,
                  job_key => 'send_mail:' || id)
           FROM rows`,
        [user.id],
      );
      const [lotId] = await createLots(db, 1, 4_000);
      await db.end();

      const stopped = Date.now();
      await cluster!.stop();
      const stopMs = Date.now() - stopped;
      // a fixed wait on purpose: the outage itself, long enough that every job falls due in it
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_SECONDS * 1000));
      const restarting = Date.now();
      cluster = await startLocalCluster({
        dataDir: cluster!.dataDir,
        port: cluster!.port,
        tuning: ["-c fsync=off"],
      });
      const back = Date.now();
      const check = new pg.Client({ connectionString: url });
      await check.connect();
      try {
        const received = () => stub.received.filter((m) => m.subject.startsWith("Outage "));
        await waitUntil(
          "the e-mails after the outage",
          () => received().length >= 20,
          30_000,
        ).catch((error) => {
          throw new Error(`${(error as Error).message}\n${worker.output().slice(-4000)}`);
        });
        const mailedAt = Date.now();
        await waitUntil("the lot closed", async () => {
          const { rows } = await check.query<{ closed_at: Date | null }>(
            "SELECT closed_at FROM lots WHERE id = $1",
            [lotId],
          );
          return rows[0].closed_at !== null;
        });
        const closedAt = Date.now();
        await waitUntil("the outbox rows sent", async () => {
          const { rows } = await check.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM mail_outbox WHERE subject LIKE 'Outage %' AND status = 'sent'",
          );
          return rows[0].n === 20;
        });
        // every job done: nothing is left that could send one twice (or fail later)
        await jobsDone("t.identifier IN ('send_mail', 'close_lot')", check);
        console.log(
          `job worker outage: stop ${stopMs} ms, down ${OUTAGE_SECONDS} s, start ${back - restarting} ms; ` +
            `all 20 e-mails ${mailedAt - back} ms after it was back, the lot closed after ${closedAt - back} ms`,
        );
        // the same process throughout, never restarted
        expect(worker.proc.exitCode).toBeNull();
        expect(worker.proc.signalCode).toBeNull();
        const mails = received();
        expect(mails).toHaveLength(20);
        expect(new Set(mails.map((m) => m.subject)).size).toBe(20);
        expect(new Set(mails.map((m) => m.messageId)).size).toBe(20);
        const { rows: lot } = await check.query<{ status: string }>(
          "SELECT status FROM lots WHERE id = $1",
          [lotId],
        );
        expect(lot[0].status).toBe("unsold");
        // nothing left waiting or failed
        const { rows: left } = await check.query<{ task: string; last_error: string | null }>(
          `SELECT t.identifier AS task, j.last_error FROM graphile_worker._private_jobs j
             JOIN graphile_worker._private_tasks t ON t.id = j.task_id
            WHERE t.identifier IN ('send_mail', 'close_lot')`,
        );
        expect(left).toEqual([]);
      } finally {
        await check.end();
      }
    },
    OUTAGE_SECONDS * 1000 + 90_000,
  );
});
