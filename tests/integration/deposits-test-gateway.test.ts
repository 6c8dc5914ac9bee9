// The built-in TEST MODE gateway (no PayPal settings): the same redirect contract, its books in
// PostgreSQL, refused in production unless ALLOW_TEST_PAYMENTS.
import { afterEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { action as depositAction, loader as depositLoader } from "~/routes/deposit/route";
import { loader as returnLoader } from "~/routes/deposit_.return";
import { loader as cancelLoader } from "~/routes/deposit_.cancel";
import {
  action as checkoutAction,
  loader as checkoutLoader,
} from "~/routes/payments.test-checkout";
import { ledgerTotal, refundDeposit } from "~/services/deposits/deposits.server";
import { resetEnvForTests } from "~/platform/env.server";
import { runSeeds } from "../../db/seeds/index";
import { createTestUser, requestAs } from "../support/auth";
import { statusOf } from "../support/http";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

const saved = { ...process.env };

withTestGateway();
afterEach(() => {
  for (const key of [
    "NODE_ENV",
    "ALLOW_TEST_PAYMENTS",
    "SESSION_SECRET",
    "APP_URL",
    "OIDC_ISSUER",
    "OIDC_CLIENT_ID",
    "OIDC_CLIENT_SECRET",
    "PAYPAL_CLIENT_ID",
    "PAYPAL_CLIENT_SECRET",
    "FILE_STORAGE",
  ]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  resetEnvForTests();
});

async function pay(user: User, amount: string) {
  const response = (await depositAction(
    args(await requestAs(user, "/deposit", { form: { intent: "pay", amount } })),
  )) as Response;
  expect(response.status).toBe(302);
  const approval = new URL(response.headers.get("location")!);
  expect(approval.pathname).toBe("/payments/test-checkout");
  return approval;
}

async function decide(approval: URL, intent: "approve" | "cancel") {
  const token = approval.searchParams.get("token")!;
  const response = (await checkoutAction(
    args(
      await requestAs(null, `${approval.pathname}${approval.search}`, {
        form: { token, intent },
      }),
    ),
  )) as Response;
  return response;
}

const balance = async (user: User) =>
  (await User.findByPk(user.id, { rejectOnEmpty: true })).deposit;

describe("TEST MODE gateway", () => {
  it("the page says TEST MODE", async () => {
    const user = await createTestUser();
    const page = (await depositLoader(
      args(await requestAs(user, "/deposit?amount=1000")),
    )) as unknown as {
      data: {
        testMode: boolean;
        chosenAmount: string;
        balance: string;
        eligibility: { canBid: boolean };
      };
    };
    expect(page.data).toMatchObject({
      testMode: true,
      chosenAmount: "1000.00",
      balance: "0.00",
      eligibility: { canBid: false, label: "Minimum Deposit Required: add $400.00" },
    });
  });

  it("pay → approval page → approve → return credits once → success", async () => {
    const user = await createTestUser();
    const approval = await pay(user, "1000");
    const checkout = (await checkoutLoader(
      args(await requestAs(null, `${approval.pathname}${approval.search}`)),
    )) as unknown as { data: { order: { amount: string; open: boolean } } };
    expect(checkout.data.order).toMatchObject({ amount: "1000.00", open: true });

    const approved = await decide(approval, "approve");
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get("location")!);
    expect(back.pathname).toBe("/deposit/return");
    expect(back.searchParams.get("token")).toBe(approval.searchParams.get("token"));

    const done = await returnLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
    expect(done.headers.get("location")).toBe("/deposit");
    expect(await balance(user)).toBe("1000.00");
    await returnLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
    expect(await balance(user)).toBe("1000.00");
    expect(await ledgerTotal(user.id)).toBe("1000.00");

    // Approving again after capture is refused.
    expect(statusOf(await decide(approval, "approve"))).toBe(409);
  });

  it("the return URL before approval credits nothing", async () => {
    const user = await createTestUser();
    const approval = await pay(user, "400");
    const done = await returnLoader(
      args(await requestAs(user, `/deposit/return?token=${approval.searchParams.get("token")}`)),
    );
    expect(done.headers.get("location")).toBe("/deposit");
    expect(await balance(user)).toBe("0.00");
  });

  it("cancel on the approval page changes nothing", async () => {
    const user = await createTestUser();
    const approval = await pay(user, "2500");
    const cancelled = await decide(approval, "cancel");
    const back = new URL(cancelled.headers.get("location")!);
    expect(back.pathname).toBe("/deposit/cancel");
    const done = await cancelLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
    expect(done.headers.get("location")).toBe("/deposit");
    expect(await balance(user)).toBe("0.00");
    // A cancelled test order cannot be approved afterwards.
    expect(statusOf(await decide(approval, "approve"))).toBe(409);
  });

  it("refunds go back through the test gateway", async () => {
    const user = await createTestUser();
    const approval = await pay(user, "1000");
    const approved = await decide(approval, "approve");
    const back = new URL(approved.headers.get("location")!);
    await returnLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
    expect(await refundDeposit(user.id, "600.00")).toEqual({
      refunded: "600.00",
      pending: "0.00",
      failed: "0.00",
      newDeposit: "400.00",
    });
    const [row] = await sequelize.query<{ refunded_amount: string }>(
      "select refunded_amount from test_gateway_orders where id = :id",
      { replacements: { id: approval.searchParams.get("token") }, type: QueryTypes.SELECT },
    );
    expect(row.refunded_amount).toBe("600.00");
    await expect(refundDeposit(user.id, "600.00")).rejects.toThrow("at most $400.00");
  });

  it("the approval page is refused in production unless ALLOW_TEST_PAYMENTS", async () => {
    const user = await createTestUser();
    const approval = await pay(user, "400");
    Object.assign(process.env, {
      NODE_ENV: "production",
      SESSION_SECRET: "production-test-secret-0123456789abcdef",
      APP_URL: "http://localhost:3000",
      OIDC_ISSUER: "https://id.example",
      OIDC_CLIENT_ID: "x",
      OIDC_CLIENT_SECRET: "y",
      PAYPAL_CLIENT_ID: "id",
      PAYPAL_CLIENT_SECRET: "secret",
      FILE_STORAGE: "local",
    });
    resetEnvForTests();
    const path = `${approval.pathname}${approval.search}`;
    const refused = await checkoutLoader(args(await requestAs(null, path))).catch(
      (e: unknown) => e,
    );
    expect((refused as Response).status).toBe(404);
    const refusedPost = await checkoutAction(
      args(
        await requestAs(null, path, {
          form: { token: approval.searchParams.get("token")!, intent: "approve" },
        }),
      ),
    ).catch((e: unknown) => e);
    expect((refusedPost as Response).status).toBe(404);

    process.env.ALLOW_TEST_PAYMENTS = "true";
    delete process.env.PAYPAL_CLIENT_ID;
    delete process.env.PAYPAL_CLIENT_SECRET;
    resetEnvForTests();
    const allowed = (await checkoutLoader(args(await requestAs(null, path)))) as unknown as {
      data: { order: { open: boolean } };
    };
    expect(allowed.data.order.open).toBe(true);
  });
});

describe("demo seed", () => {
  it("gives buyer@bidyard.test its $2,500 through one ledger entry (a captured test payment), once", async () => {
    await runSeeds([], () => undefined);
    await runSeeds([], () => undefined);
    const buyer = await User.findOne({
      where: { email: "buyer@bidyard.test" },
      rejectOnEmpty: true,
    });
    expect(buyer.deposit).toBe("2500.00");
    expect(await ledgerTotal(buyer.id)).toBe("2500.00");
    const [{ count }] = await sequelize.query<{ count: string }>(
      "select count(*) from deposit_entries where user_id = :id",
      { replacements: { id: buyer.id }, type: QueryTypes.SELECT },
    );
    expect(count).toBe("1");
  });
});
