// Issue 34, finding 2 (docs/decisions/3205): a JSON body nested thousands of levels deep, well
// under the 64 KB cap, overflowed the stack of the recursive input cleaner: a 500 and a stack
// trace logged as an error. Through the production server (two workers), each of the four calls
// the probe named answers 400 naming the limit, logs no error and writes nothing; a form with
// more fields than the limit is refused the same way.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, TOO_DEEP } from "~/http/json-body.server";
import { MAX_FORM_FIELDS, TOO_MANY_FIELDS } from "~/http/form-body.server";
import { ensureBuilt, type AppProcess } from "../support/app-process";
import { liveBidder, startLiveServer } from "../support/live-cluster";
import { waitFor } from "../support/wait";

let db: pg.Client;
let app: AppProcess;
let buyer: { id: string; cookie: string };

beforeAll(async () => {
  await ensureBuilt();
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  app = await startLiveServer(process.env.DATABASE_URL!, { WEB_CONCURRENCY: "2" });
  buyer = await liveBidder(db, "deep-json");
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await db?.end();
});

/** Row counts of every table and the users' deposits: what a refused request must not change. */
async function checksum() {
  const { rows } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('rate_limits', 'sessions') ORDER BY 1",
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    const { rows: n } = await db.query(`SELECT count(*)::int AS n FROM "${table_name}"`);
    counts[table_name] = n[0].n;
  }
  const { rows: money } = await db.query("SELECT coalesce(sum(deposit), 0)::text AS d FROM users");
  return { counts, deposits: money[0].d };
}

/** What the server logged after `mark` at level error or with a stack trace. */
function errorsLoggedAfter(mark: number) {
  return app
    .output()
    .slice(mark)
    .split("\n")
    .filter((line) =>
      /"level":\s*"?(error|fatal|50|60)\b|"err"|"stack"|\n?\s+at \S+ \(/.test(line),
    );
}

/**
 * Waits for the request lines of the `count` calls made after `mark`: a worker writes what it
 * logs about a request (an error, a stack) before that request's line, so then all of it is in.
 */
function requestsLogged(mark: number, count: number) {
  return waitFor(
    () =>
      (
        app
          .output()
          .slice(mark)
          .match(/"msg":"request"/g) ?? []
      ).length >= count,
    {
      what: `${count} request lines`,
      timeout: 5_000,
      detail: () => app.output().slice(mark),
    },
  );
}

const nestedObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);
const nestedArray = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
const ROUTES = ["/api/bids", "/api/vehicles", "/paypal/order", "/api/confirm-deposit"];

describe("deeply nested JSON", () => {
  it("answers 400 naming the limit on the four calls, logs no error, writes nothing", async () => {
    expect(nestedObject(8000).length).toBeGreaterThan(47_000);
    expect(nestedObject(8000).length).toBeLessThan(64 * 1024);
    const before = await checksum();
    const mark = app.output().length;
    const answers: string[] = [];
    for (const path of ROUTES) {
      for (const body of [nestedObject(8000), nestedArray(8000), nestedObject(4000)]) {
        const response = await fetch(`${app.url}${path}`, {
          method: "POST",
          headers: {
            Cookie: buyer.cookie,
            Origin: app.url,
            "Content-Type": "application/json",
            Accept: "application/json",
          },
          body,
        });
        const answer = (await response.json().catch(() => ({}))) as { message?: string };
        answers.push(`${path} ${body.length}: ${response.status} ${answer.message}`);
        expect(response.status, answers.at(-1)).toBe(400);
        expect(answer.message).toBe(TOO_DEEP);
      }
    }
    expect(TOO_DEEP).toContain(`at most ${MAX_JSON_DEPTH} levels`);
    await requestsLogged(mark, answers.length);
    expect(errorsLoggedAfter(mark)).toEqual([]);
    expect(await checksum()).toEqual(before);
  });

  it("still reads a body nested as deep as the limit allows", async () => {
    // 32 levels is far more than any call takes: the schema refuses it, not the depth check
    const response = await fetch(`${app.url}/api/bids`, {
      method: "POST",
      headers: { Cookie: buyer.cookie, Origin: app.url, "Content-Type": "application/json" },
      body: JSON.stringify({ vehicleId: JSON.parse(nestedObject(MAX_JSON_DEPTH - 1)) }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).not.toBe(TOO_DEEP);
  });

  it("refuses a form with more fields than the limit: 400 naming it, no error logged", async () => {
    const before = await checksum();
    const mark = app.output().length;
    const form = new URLSearchParams();
    for (let i = 0; i <= MAX_FORM_FIELDS; i++) form.append(`f${i}`, "x");
    form.set("timeZone", "America/Denver");
    const response = await fetch(`${app.url}/account/time-zone`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Cookie: buyer.cookie,
        Origin: app.url,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: form,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(TOO_MANY_FIELDS);
    await requestsLogged(mark, 1);
    expect(errorsLoggedAfter(mark)).toEqual([]);
    expect(await checksum()).toEqual(before);
    const { rows } = await db.query("SELECT time_zone FROM users WHERE id = $1", [buyer.id]);
    expect(rows[0].time_zone).not.toBe("America/Denver");
  });
});
