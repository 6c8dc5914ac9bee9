// Deposits through the real PayPal client code, with msw playing PayPal.
import { http, HttpResponse } from "msw";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { DepositEntry } from "~/models/deposit-entry.server";
import { PaymentOrder, PaymentRefund } from "~/models/payment.server";
import { Notification } from "~/models/notification.server";
import { User } from "~/models/user.server";
import { action as confirmAction } from "~/routes/api.confirm-deposit";
import { action as depositAction } from "~/routes/deposit/route";
import { loader as cancelLoader } from "~/routes/deposit_.cancel";
import { loader as returnLoader } from "~/routes/deposit_.return";
import { action as captureAction } from "~/routes/paypal.order.$id.capture";
import { action as orderAction } from "~/routes/paypal.order";
import { loader as setupLoader } from "~/routes/paypal.setup";
import { forgetPayPalToken, paypalTimeouts } from "~/platform/payments/paypal.server";
import {
  ledgerTotal,
  postLedgerEntry,
  queueMissingRefundRetries,
  refundDeposit,
  retryRefund,
} from "~/services/deposits/deposits.server";
import { sequelize } from "~/models/db.server";
import { fromCents, toCents } from "~/utils/money";
import { resetEnvForTests } from "~/platform/env.server";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";
import { server } from "../mocks/server";
import { createTestUser, requestAs } from "../support/auth";
import { queuedJobs, runRefundRetries } from "../support/jobs";
import { args } from "../support/routes";
import { untilAborted } from "../support/wait";
import { queueRefundRetry } from "~/services/deposits/refund-retry-queue.server";
import { listFailedJobs } from "~/services/admin/failed-jobs.server";

// Lets a test hold part of a deposit the way open bids will, without the auction engine.
const held = vi.hoisted(() => ({ cents: 0 }));
vi.mock("~/services/auctions/buying-power.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/services/auctions/buying-power.server")>();
  return {
    ...real,
    availableBuyingPower: async (...args: Parameters<typeof real.availableBuyingPower>) => {
      const available = toCents(await real.availableBuyingPower(...args));
      return fromCents(Math.max(0, available - held.cents));
    },
  };
});

const CONFIRM_FAILED = "Failed to confirm deposit. Please try again.";

function usePayPal(secret = PAYPAL_TEST_CREDENTIALS.clientSecret) {
  process.env.PAYPAL_CLIENT_ID = PAYPAL_TEST_CREDENTIALS.clientId;
  process.env.PAYPAL_CLIENT_SECRET = secret;
  delete process.env.PAYPAL_API_BASE;
  resetEnvForTests();
  forgetPayPalToken();
}

beforeAll(() => usePayPal());
beforeEach(() => {
  paypalFake.reset();
  held.cents = 0;
  usePayPal();
});
afterEach(() => {
  server.resetHandlers();
  paypalTimeouts.requestMs = 15_000;
});
afterAll(() => {
  delete process.env.PAYPAL_CLIENT_ID;
  delete process.env.PAYPAL_CLIENT_SECRET;
  resetEnvForTests();
});

async function createOrder(user: User, amount = "1000.00") {
  const response = await orderAction(
    args(
      await requestAs(user, "/paypal/order", {
        json: { amount, currency: "USD", intent: "CAPTURE" },
      }),
    ),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function confirm(user: User, orderID: string, amount = "1000.00") {
  return confirmAction(
    args(await requestAs(user, "/api/confirm-deposit", { json: { orderID, amount } })),
  );
}

async function balanceOf(user: User) {
  return (await User.findByPk(user.id, { rejectOnEmpty: true })).deposit;
}

async function entriesOf(user: User) {
  return DepositEntry.findAll({ where: { userId: user.id }, order: [["id", "ASC"]], raw: true });
}

async function expectLedgerAgrees(user: User) {
  expect(await ledgerTotal(user.id)).toBe(await balanceOf(user));
}

describe("deposits through PayPal", () => {
  it("happy path: order, approval, capture, credit", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user, "1000.00");
    const sent = paypalFake.orders.get(orderId)!;
    expect(sent.amount).toBe("1000.00");
    expect(sent.returnUrl).toBe("http://localhost:3000/deposit/return");
    expect(sent.cancelUrl).toBe("http://localhost:3000/deposit/cancel");
    paypalFake.approve(orderId);

    const captured = await captureAction(
      args(await requestAs(user, `/paypal/order/${orderId}/capture`, { method: "POST" }), {
        id: orderId,
      }),
    );
    expect(captured.status).toBe(200);
    expect(await captured.json()).toMatchObject({
      status: "COMPLETED",
      amount: "1000.00",
      newDeposit: "1000.00",
    });

    const confirmed = await confirm(user, orderId);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ newDeposit: "1000.00" });

    expect(await balanceOf(user)).toBe("1000.00");
    const entries = await entriesOf(user);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      kind: "deposit",
      amount: "1000.00",
      balanceAfter: "1000.00",
    });
    await expectLedgerAgrees(user);
    const order = await PaymentOrder.findOne({ where: { providerOrderId: orderId }, raw: true });
    expect(order).toMatchObject({
      status: "captured",
      capturedAmount: "1000.00",
      purpose: "deposit",
    });
    expect(paypalFake.calls.token).toBe(1); // the OAuth token is cached across calls
    const notes = await Notification.findAll({ where: { userId: user.id }, raw: true });
    expect(notes.map((n) => n.title)).toEqual(["Deposit received: $1,000.00"]);
  });

  it("an expired OAuth token is renewed once; a strange approval link is never followed", async () => {
    const user = await createTestUser();
    await createOrder(user);
    expect(paypalFake.calls.token).toBe(1);
    server.use(
      http.post(
        `${PAYPAL_BASE}/v2/checkout/orders`,
        () => HttpResponse.json({ error: "invalid_token" }, { status: 401 }),
        { once: true },
      ),
    );
    await createOrder(user);
    expect(paypalFake.calls.token).toBe(2);

    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders`, () =>
        HttpResponse.json({
          id: "EVIL1",
          status: "PAYER_ACTION_REQUIRED",
          links: [{ rel: "payer-action", href: "https://evil.example/checkoutnow?token=EVIL1" }],
        }),
      ),
    );
    const response = await orderAction(
      args(
        await requestAs(user, "/paypal/order", {
          json: { amount: "400", currency: "USD", intent: "CAPTURE" },
        }),
      ),
    );
    expect(response.status).toBe(502);
    expect(await PaymentOrder.count({ where: { providerOrderId: "EVIL1" } })).toBe(0);
  });

  it("GET /paypal/setup answers a client token", async () => {
    const user = await createTestUser();
    const response = await setupLoader(args(await requestAs(user, "/paypal/setup")));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      clientToken: expect.stringMatching(/^CT-/),
      clientId: PAYPAL_TEST_CREDENTIALS.clientId,
      testMode: false,
    });
  });

  it("credits the captured amount, not the amount the browser claims", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user, "1000.00");
    paypalFake.approve(orderId);
    paypalFake.captureAmountOverride = "950.00";
    const response = await confirm(user, orderId, "5000.00");
    expect(await response.json()).toMatchObject({ newDeposit: "950.00" });
    expect(await balanceOf(user)).toBe("950.00");
    await expectLedgerAgrees(user);
  });

  it("an order captured already (422 ORDER_ALREADY_CAPTURED) is settled once from the order", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user, "2500.00");
    paypalFake.approve(orderId);
    paypalFake.captureElsewhere(orderId);

    const first = await confirm(user, orderId);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ newDeposit: "2500.00" });
    expect(paypalFake.calls.getOrder).toBe(1);

    paypalFake.replayRequests = false;
    const second = await confirm(user, orderId);
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ newDeposit: "2500.00" });
    expect(await entriesOf(user)).toHaveLength(1);
    expect(await balanceOf(user)).toBe("2500.00");
  });

  it("20 concurrent confirmations of one order credit it exactly once", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user, "1000.00");
    paypalFake.approve(orderId);
    // Every capture after the first answers 422 ORDER_ALREADY_CAPTURED, the hardest case.
    paypalFake.replayRequests = false;
    const responses = await Promise.all(Array.from({ length: 20 }, () => confirm(user, orderId)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await balanceOf(user)).toBe("1000.00");
    expect(await entriesOf(user)).toHaveLength(1);
    expect(await Notification.count({ where: { userId: user.id } })).toBe(1);
    await expectLedgerAgrees(user);
  });

  it("the database itself refuses a second credit for one order and a negative balance", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user, "400.00");
    paypalFake.approve(orderId);
    await confirm(user, orderId);
    const order = await PaymentOrder.findOne({
      where: { providerOrderId: orderId },
      rejectOnEmpty: true,
    });
    await expect(
      sequelize.transaction((transaction) =>
        postLedgerEntry(transaction, {
          userId: user.id,
          kind: "deposit",
          amount: "400.00",
          paymentOrderId: order.id,
        }),
      ),
    ).rejects.toThrow();
    await expect(
      sequelize.transaction((transaction) =>
        postLedgerEntry(transaction, { userId: user.id, kind: "applied", amount: "-400.01" }),
      ),
    ).rejects.toThrow();
    expect(await balanceOf(user)).toBe("400.00");
    await expectLedgerAgrees(user);
  });

  it("PayPal 5xx: the error message and no credit; a later retry settles", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user);
    paypalFake.approve(orderId);
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, () =>
        HttpResponse.json({ name: "INTERNAL_SERVER_ERROR" }, { status: 503 }),
      ),
    );
    const failed = await confirm(user, orderId);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ message: CONFIRM_FAILED });
    expect(await balanceOf(user)).toBe("0.00");
    expect(await entriesOf(user)).toHaveLength(0);

    server.resetHandlers();
    expect(await (await confirm(user, orderId)).json()).toMatchObject({ newDeposit: "1000.00" });
  });

  it("a PayPal timeout gives the error and no credit", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user);
    paypalFake.approve(orderId);
    paypalTimeouts.requestMs = 150;
    server.use(
      // PayPal never answers: only our timeout ends the call
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, async ({ request }) => {
        await untilAborted(request.signal);
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    const failed = await confirm(user, orderId);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ message: CONFIRM_FAILED });
    expect(await balanceOf(user)).toBe("0.00");
  });

  it("bad credentials give the error and no credit", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user);
    paypalFake.approve(orderId);
    usePayPal("wrong-secret");
    const failed = await confirm(user, orderId);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ message: CONFIRM_FAILED });
    expect(await balanceOf(user)).toBe("0.00");
    expect(paypalFake.calls.capture).toBe(0);
  });

  it("an order that is not approved is not credited", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user);
    const failed = await confirm(user, orderId);
    expect(failed.status).toBe(502);
    expect(await balanceOf(user)).toBe("0.00");
  });

  it("another user's order cannot be confirmed", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const orderId = await createOrder(owner);
    paypalFake.approve(orderId);
    const response = await confirm(other, orderId);
    expect(response.status).toBe(404);
    expect(await balanceOf(other)).toBe("0.00");
    expect(await balanceOf(owner)).toBe("0.00");
    expect(paypalFake.calls.capture).toBe(0);
  });

  it("signed out: 401 JSON", async () => {
    const response = await confirmAction(
      args(await requestAs(null, "/api/confirm-deposit", { json: { orderID: "X", amount: "1" } })),
    ).catch((error: unknown) => error as Response);
    expect(response.status).toBe(401);
  });

  it("without JavaScript: pay redirects to PayPal, the return URL credits and shows success", async () => {
    const user = await createTestUser();
    const pay = (await depositAction(
      args(await requestAs(user, "/deposit", { form: { intent: "pay", amount: "2500" } })),
    )) as Response;
    expect(pay.status).toBe(302);
    const approval = new URL(pay.headers.get("location")!);
    expect(approval.origin).toBe("https://www.sandbox.paypal.com");
    const token = approval.searchParams.get("token")!;
    paypalFake.approve(token);

    const back = await returnLoader(
      args(await requestAs(user, `/deposit/return?token=${token}&PayerID=ABC`)),
    );
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/deposit");
    expect(await balanceOf(user)).toBe("2500.00");

    // A reload of the return URL credits nothing more.
    await returnLoader(args(await requestAs(user, `/deposit/return?token=${token}`)));
    expect(await balanceOf(user)).toBe("2500.00");
  });

  it("without JavaScript: a PayPal failure on return shows the error toast", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user);
    paypalFake.approve(orderId);
    server.use(
      http.post(`${PAYPAL_BASE}/v2/checkout/orders/:id/capture`, () =>
        HttpResponse.text("upstream", { status: 500 }),
      ),
    );
    const back = await returnLoader(
      args(await requestAs(user, `/deposit/return?token=${orderId}`)),
    );
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/deposit");
    expect(back.headers.get("set-cookie")).toContain("__toast=");
    expect(await balanceOf(user)).toBe("0.00");
  });

  it("a cancelled payment changes nothing", async () => {
    const user = await createTestUser();
    const orderId = await createOrder(user);
    const back = await cancelLoader(
      args(await requestAs(user, `/deposit/cancel?token=${orderId}`)),
    );
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/deposit");
    expect(back.headers.get("set-cookie")).toContain("__toast=");
    expect(await balanceOf(user)).toBe("0.00");
    expect(await entriesOf(user)).toHaveLength(0);
    expect(paypalFake.calls.capture).toBe(0);
    const order = await PaymentOrder.findOne({ where: { providerOrderId: orderId } });
    expect(order!.status).toBe("cancelled");
  });
});

describe("deposit amount rules", () => {
  const cases: Array<[string, string]> = [
    ["399.99", "Minimum deposit is $400."],
    ["", "Enter an amount."],
    ["abc", "Enter an amount in dollars, like 400.00."],
    ["1e5", "Enter an amount in dollars, like 400.00."],
    // Below every minimum: it says the minimum (docs/decisions/2801).
    ["-500", "Minimum deposit is $400."],
    ["400.123", "Use at most two decimal places."],
    ["100000.01", "The most you can deposit at once is $100,000.00."],
    ["99999999999999999999", "The most you can deposit at once is $100,000.00."],
  ];
  it.each(cases)("custom amount %j is refused: %s", async (amount, message) => {
    const user = await createTestUser();
    const response = await depositAction(
      args(await requestAs(user, "/deposit", { form: { intent: "choose", amount } })),
    );
    const init = response as unknown as {
      init: { status: number };
      data: { result: { error: Record<string, string[]> } };
    };
    expect(init.init.status).toBe(400);
    expect(init.data.result.error.amount).toEqual([message]);
    expect(await PaymentOrder.count({ where: { userId: user.id } })).toBe(0);
  });

  it.each([
    ["400", "400.00"],
    ["1,000.5", "1000.50"],
    ["$2,500", "2500.00"],
    ["100000", "100000.00"],
  ])("custom amount %j is chosen as %s", async (amount, normalized) => {
    const user = await createTestUser();
    const response = await depositAction(
      args(await requestAs(user, "/deposit", { form: { intent: "choose", amount } })),
    );
    expect((response as Response).headers.get("location")).toBe(
      `/deposit?amount=${normalized}#payment`,
    );
  });

  it("the JSON order call refuses bad amounts with a 400 and creates nothing", async () => {
    const user = await createTestUser();
    for (const amount of ["300", "abc", "400.001", "250000"]) {
      const response = await orderAction(
        args(
          await requestAs(user, "/paypal/order", {
            json: { amount, currency: "USD", intent: "CAPTURE" },
          }),
        ),
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(
        /^Invalid Amount - /,
      );
    }
    expect(paypalFake.calls.create).toBe(0);
  });
});

describe("refunds", () => {
  async function deposit(user: User, amount: string) {
    const orderId = await createOrder(user, amount);
    paypalFake.approve(orderId);
    expect((await confirm(user, orderId)).status).toBe(200);
    return orderId;
  }

  /** PayPal's refund call answers unclearly (a 5xx) or refuses (422), until the handlers reset. */
  function paypalRefunds(answer: "unclear" | "refused") {
    server.use(
      http.post(`${PAYPAL_BASE}/v2/payments/captures/:id/refund`, () =>
        answer === "unclear"
          ? HttpResponse.json({ name: "INTERNAL_SERVER_ERROR" }, { status: 500 })
          : HttpResponse.json(
              { name: "UNPROCESSABLE_ENTITY", details: [{ issue: "TRANSACTION_REFUSED" }] },
              { status: 422 },
            ),
      ),
    );
  }

  /**
   * A new user who deposited $1,000 through PayPal and asked for `amount` back while PayPal's
   * answer was unclear: the refund is pending, its retry job queued, PayPal still unclear.
   */
  async function pendingRefund(amount: string) {
    const user = await createTestUser();
    const orderId = await deposit(user, "1000.00");
    paypalRefunds("unclear");
    const outcome = await refundDeposit(user.id, amount);
    const [refund] = await PaymentRefund.findAll({ where: { userId: user.id } });
    return { user, orderId, outcome, refund };
  }

  it("refunds through PayPal against the newest captures, never twice; ledger and balance agree", async () => {
    const user = await createTestUser();
    const older = await deposit(user, "1000.00");
    const newer = await deposit(user, "2500.00");

    const outcome = await refundDeposit(user.id, "3000.00");
    expect(outcome).toEqual({
      refunded: "3000.00",
      pending: "0.00",
      failed: "0.00",
      newDeposit: "500.00",
    });
    expect(paypalFake.refundedTotal(newer)).toBe(2500);
    expect(paypalFake.refundedTotal(older)).toBe(500);
    await expectLedgerAgrees(user);

    await expect(refundDeposit(user.id, "1000.00")).rejects.toThrow("at most $500.00");
    expect(await balanceOf(user)).toBe("500.00");
    expect(paypalFake.calls.refund).toBe(2);
  });

  it("two refunds at once cannot both take the same money", async () => {
    const user = await createTestUser();
    await deposit(user, "1000.00");
    const results = await Promise.allSettled([
      refundDeposit(user.id, "800.00"),
      refundDeposit(user.id, "800.00"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await balanceOf(user)).toBe("200.00");
    await expectLedgerAgrees(user);
  });

  it("only the available part: money held by bids stays", async () => {
    const user = await createTestUser();
    await deposit(user, "2500.00");
    held.cents = 200_000; // $2,000 held by open bids
    const page = await depositAction(
      args(
        await requestAs(user, "/deposit", { form: { intent: "refund", refundAmount: "2500.00" } }),
      ),
    );
    const refused = page as unknown as {
      init: { status: number };
      data: { result: { error: Record<string, string[]> } };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.result.error.refundAmount[0]).toContain("at most $500.00");
    expect(await balanceOf(user)).toBe("2500.00");

    const ok = await depositAction(
      args(await requestAs(user, "/deposit", { form: { intent: "refund", refundAmount: "500" } })),
    );
    expect((ok as Response).status).toBe(302);
    expect(await balanceOf(user)).toBe("2000.00");
    await expectLedgerAgrees(user);
  });

  it("a refund PayPal refuses (422) goes back to the balance, with an entry", async () => {
    const user = await createTestUser();
    await deposit(user, "1000.00");
    paypalRefunds("refused");
    const outcome = await refundDeposit(user.id, "400.00");
    expect(outcome).toEqual({
      refunded: "0.00",
      pending: "0.00",
      failed: "400.00",
      newDeposit: "1000.00",
    });
    const kinds = (await entriesOf(user)).map((e) => `${e.kind} ${e.amount}`);
    expect(kinds).toEqual(["deposit 1000.00", "refund -400.00", "adjustment 400.00"]);
    await expectLedgerAgrees(user);
    const order = await PaymentOrder.findOne({ where: { userId: user.id } });
    expect(order!.refundedAmount).toBe("0.00");
    // A later retry does not touch a refund that was refused and credited back.
    server.resetHandlers();
    await runRefundRetries();
    expect(await balanceOf(user)).toBe("1000.00");
  });

  it("an unclear answer (5xx) keeps the refund pending, and a retry pays it once", async () => {
    const { user, orderId, outcome } = await pendingRefund("400.00");
    expect(outcome).toEqual({
      refunded: "0.00",
      pending: "400.00",
      failed: "0.00",
      newDeposit: "600.00",
    });
    await expectLedgerAgrees(user);

    server.resetHandlers();
    expect(await runRefundRetries()).toMatchObject({ completed: 1 });
    expect(await runRefundRetries()).toMatchObject({ completed: 0 });
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    expect(await balanceOf(user)).toBe("600.00");
    await expectLedgerAgrees(user);
  });

  it("each refund is recorded with its retry job, in the same transaction (record 3564)", async () => {
    const user = await createTestUser();
    await deposit(user, "1000.00");
    const before = Date.now();
    await refundDeposit(user.id, "250.00");
    const [refund] = await PaymentRefund.findAll({ where: { userId: user.id } });
    expect(refund.status).toBe("completed");
    const [job] = (await queuedJobs("retry_refund")).filter(
      (j) => j.key === `retry_refund:${refund.id}`,
    );
    // due after the request's own try, with its tries; it finds the refund settled and stops
    expect(job).toMatchObject({ payload: { refundId: refund.id }, max_attempts: 8 });
    expect(new Date(job.run_at).getTime()).toBeGreaterThanOrEqual(before + 5 * 60_000 - 1_000);
    await runRefundRetries();
    expect((await queuedJobs("retry_refund")).filter((j) => j.key === job.key)).toEqual([]);
    expect(paypalFake.calls.refund).toBe(1);

    // a write that rolls back queues nothing
    const order = await PaymentOrder.findOne({ where: { userId: user.id } });
    let rolledBack = "";
    await expect(
      sequelize.transaction(async (transaction) => {
        const row = await PaymentRefund.create(
          { paymentOrderId: order!.id, userId: user.id, amount: "10.00" },
          { transaction },
        );
        await queueRefundRetry(row.id, transaction);
        rolledBack = row.id;
        throw new Error("the refund failed to record");
      }),
    ).rejects.toThrow("the refund failed to record");
    expect(rolledBack).not.toBe("");
    expect(
      (await queuedJobs("retry_refund")).filter((j) => j.key === `retry_refund:${rolledBack}`),
    ).toEqual([]);
  });

  it("a refund's job run twice at once pays it out once and records it once", async () => {
    const { user, orderId, refund } = await pendingRefund("400.00");
    expect(refund.status).toBe("pending");
    server.resetHandlers();
    // two workers (or a job run again while the first still runs): both ask PayPal with the
    // refund's own request id, one of them records it
    const tries = await Promise.all([retryRefund(refund.id), retryRefund(refund.id)]);
    expect(tries.filter((t) => t === "completed").length).toBeGreaterThanOrEqual(1);
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    expect((await PaymentRefund.findByPk(refund.id))!.status).toBe("completed");
    expect(await balanceOf(user)).toBe("600.00");
    await expectLedgerAgrees(user);

    // a refusal seen by two tries at once goes back to the balance once
    const { user: other, refund: refused } = await pendingRefund("300.00");
    server.resetHandlers();
    paypalRefunds("refused");
    await Promise.all([retryRefund(refused.id), retryRefund(refused.id)]);
    expect((await PaymentRefund.findByPk(refused.id))!.status).toBe("failed");
    expect(await balanceOf(other)).toBe("1000.00");
    expect(
      (await entriesOf(other)).filter((e) => e.kind === "adjustment").map((e) => e.amount),
    ).toEqual(["300.00"]);
    await expectLedgerAgrees(other);
  });

  it("an unclear answer is retried by the queue with its backoff; a deposit's refund still unclear after the last try stays pending", async () => {
    const { user, orderId, refund } = await pendingRefund("400.00");
    const key = `retry_refund:${refund.id}`;
    const jobOf = async () => (await queuedJobs("retry_refund")).find((j) => j.key === key);
    expect(await runRefundRetries()).toMatchObject({ pending: 1 });
    // the job failed its try and waits for the next, a few seconds on (e^1 s)
    const waiting = await jobOf();
    expect(waiting).toMatchObject({ attempts: 1 });
    expect(waiting!.last_error).toMatch(/no clear answer/);
    expect((await listFailedJobs()).find((j) => j.id === waiting!.id)?.about).toEqual({
      label: `Refund ${refund.id}`,
      href: null,
    });
    expect(new Date(waiting!.run_at).getTime()).toBeGreaterThan(Date.now());
    expect(await runRefundRetries()).toMatchObject({ pending: 1 });
    expect(await jobOf()).toMatchObject({ attempts: 2 });

    // the last try: still unclear. A deposit's refund is never credited back on a guess (the
    // money may have gone out): it stays pending, its failed job kept for a person (/admin/jobs)
    await sequelize.query(
      "UPDATE graphile_worker._private_jobs SET attempts = max_attempts - 1 WHERE key = :key",
      { replacements: { key } },
    );
    await runRefundRetries();
    expect(await jobOf()).toMatchObject({ attempts: 8, max_attempts: 8 });
    expect((await PaymentRefund.findByPk(refund.id))!.status).toBe("pending");
    expect(await balanceOf(user)).toBe("600.00");
    // the hourly sweep leaves a refund that has a job alone…
    await sequelize.query(
      "UPDATE payment_refunds SET created_at = now() - interval '1 hour' WHERE id = :id",
      { replacements: { id: refund.id } },
    );
    expect(await queueMissingRefundRetries()).toBe(0);
    // …and gives one to a pending refund without (its job discarded on /admin/jobs)
    await sequelize.query("DELETE FROM graphile_worker._private_jobs WHERE key = :key", {
      replacements: { key },
    });
    expect(await queueMissingRefundRetries()).toBe(1);
    expect(await queueMissingRefundRetries()).toBe(0);
    server.resetHandlers();
    expect(await runRefundRetries()).toMatchObject({ completed: 1 });
    expect(paypalFake.refundedTotal(orderId)).toBe(400);
    expect(await balanceOf(user)).toBe("600.00");
    await expectLedgerAgrees(user);
  });

  it("money that never came through PayPal cannot be refunded through it", async () => {
    const user = await createTestUser();
    await deposit(user, "400.00");
    const { recordOpeningBalance } = await import("~/services/deposits/deposits.server");
    const other = await createTestUser();
    await recordOpeningBalance(other.id, "2500.00");
    await expect(refundDeposit(other.id, "100.00")).rejects.toThrow(
      "was added by an adjustment and cannot be refunded through the payment provider",
    );
    await expectLedgerAgrees(other);
  });
});
