// Issue 20, deposits: the success notice comes once, demo money is a real captured test payment,
// and the refund section says the true reason when part of a balance cannot go back.
import { describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { action as depositAction, loader as depositLoader } from "~/routes/deposit/route";
import { loader as returnLoader } from "~/routes/deposit_.return";
import { action as checkoutAction } from "~/routes/payments.test-checkout";
import {
  ledgerTotal,
  recordOpeningBalance,
  refundBreakdown,
  refundDeposit,
  seedTestDeposit,
} from "~/services/deposits/deposits.server";
import { placeBid } from "../support/bids";
import { refundReasons } from "~/services/deposits/rules";
import { runSeeds } from "../../db/seeds/index";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

withTestGateway();

const count = async (sql: string, replacements: Record<string, unknown> = {}) => {
  const [row] = await sequelize.query<{ n: string }>(sql, {
    replacements,
    type: QueryTypes.SELECT,
  });
  return Number(row.n);
};

type PageData = {
  data: {
    balance: string;
    available: string;
    refund: { refundable: string; held: string; unbacked: string };
  } & Record<string, unknown>;
};

describe("the deposit success notice", () => {
  it("comes once, as a flash toast; /deposit?success=true announces nothing", async () => {
    const user = await createTestUser();
    const pay = (await depositAction(
      args(await requestAs(user, "/deposit", { form: { intent: "pay", amount: "500" } })),
    )) as Response;
    const approval = new URL(pay.headers.get("location")!);
    const token = approval.searchParams.get("token")!;
    const approved = (await checkoutAction(
      args(
        await requestAs(null, `${approval.pathname}${approval.search}`, {
          form: { token, intent: "approve" },
        }),
      ),
    )) as Response;
    const back = new URL(approved.headers.get("location")!);

    const done = await returnLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/deposit");
    expect(done.headers.get("set-cookie")).toMatch(/toast/i);

    // A reload (or a shared link) of the old success address: no success in what it renders.
    const reloaded = (await depositLoader(
      args(await requestAs(user, "/deposit?success=true")),
    )) as unknown as PageData;
    expect(reloaded.data.balance).toBe("500.00");
    expect(reloaded.data).not.toHaveProperty("success");
    expect(JSON.stringify(reloaded.data)).not.toContain("Deposit Successful");
  });
});

describe("demo deposits are captured TEST MODE payments", () => {
  it("the seed pays the demo buyer through the test gateway, once, and it is refundable", async () => {
    await runSeeds([], () => undefined);
    await runSeeds([], () => undefined);
    const buyer = await User.findOne({
      where: { email: "buyer@bidyard.test" },
      rejectOnEmpty: true,
    });
    expect(buyer.deposit).toBe("2500.00");
    expect(await ledgerTotal(buyer.id)).toBe("2500.00");
    const id = { id: buyer.id };
    expect(
      await count(
        `select count(*) n from payment_orders p
           join test_gateway_orders g on g.id = p.provider_order_id
           join deposit_entries e on e.payment_order_id = p.id and e.kind = 'deposit'
          where p.user_id = :id and p.purpose = 'deposit' and p.provider = 'test'
            and p.status = 'captured' and p.captured_amount = 2500 and g.status = 'COMPLETED'
            and e.amount = 2500`,
        id,
      ),
    ).toBe(1);
    expect(await count("select count(*) n from deposit_entries where user_id = :id", id)).toBe(1);
    expect(await count("select count(*) n from payment_orders where user_id = :id", id)).toBe(1);
    // the soak's check: every test deposit order captured = gateway completed = one ledger credit
    expect(
      await count(
        `select count(*) n from payment_orders p
           left join test_gateway_orders g on g.id = p.provider_order_id
           left join deposit_entries e on e.payment_order_id = p.id and e.kind = 'deposit'
          where p.purpose = 'deposit' and p.provider = 'test'
            and ((p.status = 'captured') <> (g.status = 'COMPLETED')
                 or (p.status = 'captured') <> (e.id is not null)
                 or (e.id is not null and e.amount <> p.captured_amount))`,
      ),
    ).toBe(0);

    // The demo buyer's seeded won, unpaid purchase (db/seeds/purchases.ts) holds its price; it is
    // set aside here so what follows checks a bid's hold alone.
    await sequelize.query("update purchases set status = 'cancelled' where user_id = :id", {
      replacements: { id: buyer.id },
    });
    // Nothing held: all of it can go back. A lead holding $500: the rest, and the reason.
    expect(await refundBreakdown(buyer.id)).toEqual({
      balance: "2500.00",
      refundable: "2500.00",
      held: "0.00",
      unbacked: "0.00",
    });
    const lot = await createTestLot();
    await placeBid(buyer.id, { lotId: lot.id, amount: "100", isProxy: true, maxAmount: "500" });
    const held = await refundBreakdown(buyer.id);
    expect(held).toEqual({
      balance: "2500.00",
      refundable: "2000.00",
      held: "500.00",
      unbacked: "0.00",
    });
    expect(refundReasons(held)).toEqual([
      "$500.00 is held by your leading bids and unpaid invoices (bid and fees) until they settle.",
    ]);
    const page = (await depositLoader(
      args(await requestAs(buyer, "/deposit")),
    )) as unknown as PageData;
    expect(page.data.refund.refundable).toBe("2000.00");
    expect(page.data.available).toBe("2000.00");
  });

  it("an interrupted seed payment is finished, not paid twice", async () => {
    const user = await createTestUser();
    await seedTestDeposit(user.id, "400.00");
    await seedTestDeposit(user.id, "400.00");
    expect((await User.findByPk(user.id, { rejectOnEmpty: true })).deposit).toBe("400.00");
    expect(
      await count("select count(*) n from payment_orders where user_id = :id", { id: user.id }),
    ).toBe(1);
  });
});

describe("the refund section's reason", () => {
  it("money added by an adjustment: says it cannot go back through the provider", async () => {
    const user = await createTestUser();
    await recordOpeningBalance(user.id, "2500.00");
    const breakdown = await refundBreakdown(user.id);
    expect(breakdown).toEqual({
      balance: "2500.00",
      refundable: "0.00",
      held: "0.00",
      unbacked: "2500.00",
    });
    expect(refundReasons(breakdown)).toEqual([
      "$2,500.00 was added by an adjustment and cannot be refunded through the payment provider; contact support.",
    ]);
    await expect(refundDeposit(user.id, "100.00")).rejects.toThrow(
      "You can refund at most $0.00: the rest was added by an adjustment and cannot be refunded through the payment provider; contact support.",
    );
  });

  it("both reasons at once, each with its own amount", async () => {
    const user = await createTestUser({ verified: true });
    await seedTestDeposit(user.id, "1000.00");
    const { postLedgerEntry } = await import("~/services/deposits/deposits.server");
    await sequelize.transaction((transaction) =>
      postLedgerEntry(transaction, {
        userId: user.id,
        kind: "adjustment",
        amount: "300.00",
        memo: "Goodwill credit",
      }),
    );
    const lot = await createTestLot();
    await placeBid(user.id, { lotId: lot.id, amount: "100", isProxy: true, maxAmount: "1200" });
    const breakdown = await refundBreakdown(user.id);
    // 1,300 on deposit, 1,200 held: 100 free, all of it paid in through the gateway
    expect(breakdown).toMatchObject({ refundable: "100.00", held: "1200.00", unbacked: "0.00" });
    expect(refundReasons(breakdown)).toHaveLength(1);
    expect(refundReasons({ held: "1200.00", unbacked: "300.00" })).toEqual([
      "$1,200.00 is held by your leading bids and unpaid invoices (bid and fees) until they settle.",
      "$300.00 was added by an adjustment and cannot be refunded through the payment provider; contact support.",
    ]);
  });
});
