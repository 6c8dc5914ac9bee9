// One way to settle a payable (docs/decisions/3201): every way of paying one payable fired at
// once against the production build running 2 workers — JSON "pay from deposit", the no-JS form
// post, gateway returns of several approved checkouts (tabs) — gives exactly one charge, for a
// transport order, an invoice and a deposit order. The probe's race (12 requests on one transport
// order: 4 JSON, 4 form, 4 gateway returns) runs PAY_ONCE_RUNS times (5 in `npm test`; 20 for the
// issue's figure: `PAY_ONCE_RUNS=20 npx vitest run tests/integration/pay-once-races.test.ts`).
// A membership period (record 3501) too: approved tabs of one plan or two, returned one after the
// other and all at once beside new JSON and form checkouts, keep one payment per period.
import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { confirmTransportPayment } from "~/services/affiliates/transport-payments.server";
import { postLedgerEntry, startDeposit } from "~/services/deposits/deposits.server";
import { beginSubscription } from "~/services/memberships/billing.server";
import { payPurchase } from "~/services/purchases/paying.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { resetEnvForTests } from "~/platform/env.server";
import { decideTestOrder } from "~/platform/payments/test-gateway.server";
import { payableChecks } from "../../soak/invariants";
import { ensureBuilt, startApp, waitFor200, type AppProcess } from "../support/app-process";
import { createTestUser } from "../support/auth";
import { freePort } from "../support/cluster";
import { createTestPlan } from "../support/memberships";
import { arrangeShippingOrder, arrangeWonPurchase, createBuyer } from "../support/purchases";

const RUNS = Number(process.env.PAY_ONCE_RUNS ?? 5);
const SECRET = "pay-once-race-secret-0123456789abcdefghij";
const sessionCookie = createCookie("__session", { secrets: [SECRET] });

let app: AppProcess;
let pool: pg.Pool;

beforeAll(async () => {
  delete process.env.PAYPAL_CLIENT_ID;
  delete process.env.PAYPAL_CLIENT_SECRET;
  resetEnvForTests();
  await ensureBuilt();
  pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
  const port = await freePort();
  app = startApp(
    {
      NODE_ENV: "production",
      DATABASE_URL: process.env.DATABASE_URL!,
      SESSION_SECRET: SECRET,
      APP_URL: `http://localhost:${port}`,
      OIDC_ISSUER: "https://id.bidyard.example",
      OIDC_CLIENT_ID: "bidyard",
      OIDC_CLIENT_SECRET: "client-secret",
      ALLOW_TEST_PAYMENTS: "true",
      FILE_STORAGE: "local",
      WEB_CONCURRENCY: "2",
    },
    port,
  );
  await waitFor200(`${app.url}/healthz`, app, 60_000);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await pool?.end();
});

/** A Cookie header for a session of `userId` on the production server. */
async function cookieFor(userId: string) {
  const token = randomBytes(32).toString("base64url");
  await sequelize.query(
    "INSERT INTO sessions (id, user_id, expires_at) VALUES (:id, :userId, now() + interval '1 hour')",
    { replacements: { id: createHash("sha256").update(token).digest("hex"), userId } },
  );
  return (await sessionCookie.serialize(token)).split(";")[0];
}

type Sent = { what: string; status: number; location: string | null };

async function send(
  what: string,
  cookie: string,
  path: string,
  init: { json?: unknown; form?: Record<string, string>; method?: string } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { Cookie: cookie, Origin: app.url };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers["Content-Type"] = "application/json";
    headers.Accept = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(`${app.url}${path}`, {
    method: init.method ?? (body !== undefined ? "POST" : "GET"),
    headers,
    body,
    redirect: "manual",
  });
  await response.arrayBuffer();
  return { what, status: response.status, location: response.headers.get("location") };
}

/** Fires every call at once and checks none answered a 5xx. */
async function fireAtOnce(calls: Array<() => Promise<Sent>>) {
  const answers = await Promise.all(calls.map((call) => call()));
  const broken = answers.filter((a) => a.status >= 500);
  const errors = broken.length
    ? app
        .output()
        .split("\n")
        .filter((l) => /error/i.test(l))
    : [];
  expect(broken, `${JSON.stringify(answers)}\n${errors.slice(-5).join("\n")}`).toEqual([]);
  return answers;
}

async function expectPayablesExact() {
  const failed = (await payableChecks(pool)).filter((check) => !check.ok);
  expect(failed).toEqual([]);
}

async function one<T extends object>(sql: string, replacements: Record<string, unknown>) {
  const [row] = await sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
}

/** What a buyer's money looks like: deposit, ledger, parked credits, kept captures. */
async function moneyOf(userId: string) {
  return one<{
    deposit: string;
    ledger: string;
    credits: string;
    kept: string;
  }>(
    `SELECT u.deposit::text,
            (SELECT coalesce(sum(amount), 0)::numeric(12,2)::text FROM deposit_entries
              WHERE user_id = u.id) AS ledger,
            (SELECT count(*) FROM deposit_entries WHERE user_id = u.id AND kind = 'deposit')::text
              AS credits,
            (SELECT count(*) FROM payment_orders o WHERE o.user_id = u.id AND o.status = 'captured'
                AND o.captured_amount > o.refunded_amount)::text AS kept
       FROM users u WHERE u.id = :userId`,
    { userId },
  );
}

// ---------------------------------------------------------------- transport orders

/** A buyer with a paid purchase and an unpaid shipping order; four checkouts started, approved. */
async function transportArranged(checkouts = 4) {
  const { buyer, order, id } = await arrangeShippingOrder("5000.00", {
    firstName: "Race",
    lastName: "Buyer",
    verified: true,
  });
  // one tab after another: each approved at the provider as soon as it opened
  const tokens: string[] = [];
  for (let i = 0; i < checkouts; i++) {
    const started = await confirmTransportPayment(buyer.id, id, order.payout, "gateway");
    const token = new URL((started as { approvalUrl: string }).approvalUrl).searchParams.get(
      "token",
    )!;
    await decideTestOrder(token, true);
    tokens.push(token);
  }
  return { buyer, id, price: order.payout, tokens, cookie: await cookieFor(buyer.id) };
}

function transportCalls(
  t: Awaited<ReturnType<typeof transportArranged>>,
  counts: { json: number; form: number; returns: number },
) {
  const newest = t.tokens[t.tokens.length - 1];
  const calls: Array<() => Promise<Sent>> = [];
  for (let i = 0; i < counts.json; i++)
    calls.push(() =>
      send("json", t.cookie, `/api/service-orders/${t.id}/pay`, {
        json: { price: t.price, source: "deposit" },
      }),
    );
  for (let i = 0; i < counts.form; i++)
    calls.push(() =>
      send("form", t.cookie, `/service-orders/${t.id}`, {
        form: { intent: "pay", price: t.price, source: "deposit" },
      }),
    );
  for (let i = 0; i < counts.returns; i++) {
    // most returns are the approved newest checkout's; every fourth is an older tab's
    const token = i % 4 === 3 ? t.tokens[i % t.tokens.length] : newest;
    calls.push(() => send("return", t.cookie, `/service-orders/payment/return?token=${token}`));
  }
  // interleaved, so every kind starts in the same instant
  return calls.sort(() => Math.random() - 0.5);
}

async function expectTransportPaidOnce(t: Awaited<ReturnType<typeof transportArranged>>) {
  const order = await one<{ payment_status: string; charges: string; source: string }>(
    `SELECT s.payment_status, (SELECT count(*) FROM service_order_charges c
                                 WHERE c.service_order_id = s.id)::text AS charges,
            (SELECT source FROM service_order_charges c WHERE c.service_order_id = s.id) AS source
       FROM service_orders s WHERE s.id = :id`,
    { id: t.id },
  );
  expect(order.payment_status).toBe("paid");
  expect(order.charges).toBe("1");
  const money = await moneyOf(t.buyer.id);
  // one charge: the deposit's or one capture's, never both; no capture parked in the deposit
  expect(money.credits).toBe("0");
  const paidFromDeposit = order.source === "deposit";
  expect(money.kept).toBe(paidFromDeposit ? "0" : "1");
  const expected = 5000 * 100 - (paidFromDeposit ? Math.round(Number(t.price) * 100) : 0);
  expect(Math.round(Number(money.deposit) * 100)).toBe(expected);
  expect(money.ledger).toBe(money.deposit);
  return order.source;
}

describe("a transport order is charged once, however it is paid at once", () => {
  it(`the probe's race, ${RUNS} times: 12 requests (4 JSON, 4 form, 4 gateway returns), 2 workers`, async () => {
    const sources: string[] = [];
    for (let run = 0; run < RUNS; run++) {
      const t = await transportArranged();
      await fireAtOnce(transportCalls(t, { json: 4, form: 4, returns: 4 }));
      sources.push(await expectTransportPaidOnce(t));
      await expectPayablesExact();
    }
    console.log(`transport probe race: ${RUNS} runs, one charge each (${sources.join(", ")})`);
  }, 240_000);

  it("2 to 20 requests at once, every mix of the ways to pay: one charge each time", async () => {
    const mixes = [
      { json: 1, form: 0, returns: 1 },
      { json: 0, form: 1, returns: 1 },
      { json: 0, form: 0, returns: 2 },
      { json: 2, form: 2, returns: 3 },
      { json: 6, form: 6, returns: 8 },
    ];
    for (const mix of mixes) {
      const t = await transportArranged();
      const answers = await fireAtOnce(transportCalls(t, mix));
      expect(answers).toHaveLength(mix.json + mix.form + mix.returns);
      await expectTransportPaidOnce(t);
    }
    await expectPayablesExact();
  }, 240_000);
});

// ---------------------------------------------------------------- invoices

/**
 * A won purchase whose deposit covered the winning bid: four checkouts for the fees started
 * (tabs) and approved; then the buyer tops the deposit up so it covers the whole invoice, and
 * "pay from deposit" races the checkouts' returns.
 */
async function invoiceArranged() {
  const buyer = await createBuyer("1500.00");
  const { purchaseId } = await arrangeWonPurchase(buyer, "1500.00");
  const view = await purchaseView(buyer.id, purchaseId);
  const gateway = (view.split!.gatewayCents / 100).toFixed(2);
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++) {
    const started = (await payPurchase(buyer.id, purchaseId, gateway)) as { approvalUrl: string };
    const token = new URL(started.approvalUrl).searchParams.get("token")!;
    await decideTestOrder(token, true);
    tokens.push(token);
  }
  await sequelize.transaction((transaction) =>
    postLedgerEntry(transaction, {
      userId: buyer.id,
      kind: "adjustment",
      amount: gateway,
      memo: "Top-up for the race",
    }),
  );
  return { buyer, purchaseId, tokens, cookie: await cookieFor(buyer.id) };
}

describe("an invoice is charged once, however it is paid at once", () => {
  it(`${RUNS} times: 4 form posts paying from the deposit and 8 returns of 4 approved checkouts`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const inv = await invoiceArranged();
      const calls: Array<() => Promise<Sent>> = [];
      for (let i = 0; i < 4; i++)
        calls.push(() =>
          send("form", inv.cookie, `/purchases/${inv.purchaseId}`, {
            form: { intent: "pay", amount: "0.00" },
          }),
        );
      for (let i = 0; i < 8; i++)
        calls.push(() =>
          send("return", inv.cookie, `/purchases/return?token=${inv.tokens[i % 4]}`),
        );
      await fireAtOnce(calls.sort(() => Math.random() - 0.5));
      const purchase = await one<{ status: string; captures: string }>(
        `SELECT p.status, (SELECT count(*) FROM payment_orders o
                             JOIN purchase_payment_orders pp ON pp.payment_order_id = o.id
                            WHERE pp.purchase_id = p.id AND o.status = 'captured')::text AS captures
           FROM purchases p WHERE p.id = :id`,
        { id: inv.purchaseId },
      );
      expect(purchase.status).toBe("paid");
      expect(Number(purchase.captures)).toBeLessThanOrEqual(1);
      const money = await moneyOf(inv.buyer.id);
      expect(money.credits).toBe("0");
      expect(money.ledger).toBe(money.deposit);
      await expectPayablesExact();
    }
  }, 240_000);
});

// ---------------------------------------------------------------- deposit orders

describe("a deposit order is credited once, however it is confirmed at once", () => {
  it(`${RUNS} times: 4 JSON confirmations, 4 SDK captures and 4 returns of one approved order`, async () => {
    for (let run = 0; run < RUNS; run++) {
      const buyer = await createTestUser({ verified: true });
      const started = await startDeposit(buyer.id, "250.00");
      const token = started.order.providerOrderId;
      await decideTestOrder(token, true);
      const cookie = await cookieFor(buyer.id);
      const calls: Array<() => Promise<Sent>> = [];
      for (let i = 0; i < 4; i++) {
        calls.push(() =>
          send("json", cookie, "/api/confirm-deposit", {
            json: { orderID: token, amount: "250.00" },
          }),
        );
        calls.push(() =>
          send("capture", cookie, `/paypal/order/${token}/capture`, { method: "POST" }),
        );
        calls.push(() => send("return", cookie, `/deposit/return?token=${token}`));
      }
      await fireAtOnce(calls.sort(() => Math.random() - 0.5));
      const money = await moneyOf(buyer.id);
      expect(money).toEqual({ deposit: "250.00", ledger: "250.00", credits: "1", kept: "1" });
      await expectPayablesExact();
    }
  }, 240_000);
});

// ---------------------------------------------------------------- membership periods

/** A member-to-be with `plans.length` checkouts (tabs) started and approved at the gateway. */
async function membershipArranged(plans: Array<{ id: string }>) {
  const user = await createTestUser({ verified: true });
  const tokens: string[] = [];
  for (const plan of plans) {
    const started = await beginSubscription(user.id, { planId: plan.id });
    const token = new URL(started.approvalUrl).searchParams.get("token")!;
    await decideTestOrder(token, true);
    tokens.push(token);
  }
  return { user, tokens, cookie: await cookieFor(user.id) };
}

/** One kept payment for the period: one capture kept, one purchase applied, one receipt. */
async function expectOnePeriodPaid(userId: string) {
  const row = await one<{ kept: string; applied: string; receipts: string; refunds: string }>(
    `SELECT (SELECT count(*) FROM payment_orders o WHERE o.user_id = :userId
                AND o.purpose = 'membership' AND o.status = 'captured'
                AND o.captured_amount > o.refunded_amount)::text AS kept,
            (SELECT count(*) FROM membership_purchases m WHERE m.user_id = :userId
                AND m.status = 'applied')::text AS applied,
            (SELECT count(*) FROM mail_outbox x WHERE x.user_id = :userId
                AND x.topic = 'membership_receipt' AND x.subject LIKE 'Receipt:%')::text AS receipts,
            (SELECT count(*) FROM payment_refunds r WHERE r.user_id = :userId)::text AS refunds`,
    { userId },
  );
  expect(row).toEqual({ kept: "1", applied: "1", receipts: "1", refunds: "0" });
  const money = await moneyOf(userId);
  expect(money.credits).toBe("0");
  expect(money.ledger).toBe(money.deposit);
}

describe("a membership period is paid once, however its checkouts come back", () => {
  it(`${RUNS} times in sequence: two tabs (same plan, then another), returns one after the other`, async () => {
    const basic = await createTestPlan({ name: "Basic", price: "19.99" });
    const pro = await createTestPlan({ name: "Pro", price: "49.99" });
    for (let run = 0; run < RUNS; run++) {
      const plans = run % 2 === 0 ? [basic, basic] : [pro, basic];
      const m = await membershipArranged(plans);
      const first = await send("return", m.cookie, `/membership/return?token=${m.tokens[0]}`);
      const second = await send("return", m.cookie, `/membership/return?token=${m.tokens[1]}`);
      expect([first.status, second.status]).toEqual([302, 302]);
      await expectOnePeriodPaid(m.user.id);
      // the first tab's plan is the one paid
      const membership = await one<{ plan_id: string }>(
        "SELECT plan_id::text FROM memberships WHERE user_id = :userId",
        { userId: m.user.id },
      );
      expect(membership.plan_id).toBe(String(plans[0].id));
      // and a third checkout is refused plainly
      const again = await send("json", m.cookie, "/api/membership/subscribe", {
        json: { planId: basic.id },
      });
      expect(again.status).toBe(409);
      await expectPayablesExact();
    }
    console.log(`membership sequence: ${RUNS} runs, one kept payment each`);
  }, 240_000);

  it(`${RUNS} times at once: 3 approved tabs (2 plans) returned twice each, with JSON and form subscribes, 2 workers`, async () => {
    const basic = await createTestPlan({ name: "Basic", price: "19.99" });
    const pro = await createTestPlan({ name: "Pro", price: "49.99" });
    const statuses = new Map<number, number>();
    for (let run = 0; run < RUNS; run++) {
      const m = await membershipArranged([basic, pro, basic]);
      const calls: Array<() => Promise<Sent>> = [];
      for (const token of [...m.tokens, ...m.tokens])
        calls.push(() => send("return", m.cookie, `/membership/return?token=${token}`));
      for (let i = 0; i < 2; i++) {
        calls.push(() =>
          send("json", m.cookie, "/api/membership/subscribe", { json: { planId: pro.id } }),
        );
        calls.push(() =>
          send("form", m.cookie, "/membership", {
            form: { intent: "subscribe", planId: basic.id },
          }),
        );
      }
      const answers = await fireAtOnce(calls.sort(() => Math.random() - 0.5));
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      await expectOnePeriodPaid(m.user.id);
      await expectPayablesExact();
    }
    console.log(
      `membership race: ${RUNS} runs, one kept payment each (answers ${JSON.stringify(Object.fromEntries(statuses))})`,
    );
  }, 240_000);
});
