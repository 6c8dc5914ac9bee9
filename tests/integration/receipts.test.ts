// Every payment has a receipt: money added to a deposit, and a membership period
// (docs/decisions/3305); each once per payment, each under its own preference.
import { afterAll, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { action as depositAction } from "~/routes/deposit/route";
import { loader as returnLoader } from "~/routes/deposit_.return";
import { action as checkoutAction } from "~/routes/payments.test-checkout";
import { MAIL_TOPICS, TOPIC_NAMES } from "~/platform/mail/topics";
import { setMailPreferences } from "~/platform/mail/preferences.server";
import { resetEnvForTests } from "~/platform/env.server";
import { createTestUser, requestAs } from "../support/auth";
import { args } from "../support/routes";
import { withTestGateway } from "../support/gateway";

const saved = { id: process.env.PAYPAL_CLIENT_ID, secret: process.env.PAYPAL_CLIENT_SECRET };

withTestGateway();
afterAll(() => {
  if (saved.id !== undefined) process.env.PAYPAL_CLIENT_ID = saved.id;
  if (saved.secret !== undefined) process.env.PAYPAL_CLIENT_SECRET = saved.secret;
  resetEnvForTests();
});

/** Pays `amount` into the deposit through the test gateway, returning twice (as a reload would). */
async function deposit(user: User, amount: string) {
  const started = (await depositAction(
    args(await requestAs(user, "/deposit", { form: { intent: "pay", amount } })),
  )) as Response;
  const approval = new URL(started.headers.get("location")!);
  const token = approval.searchParams.get("token")!;
  const approved = (await checkoutAction(
    args(
      await requestAs(null, `${approval.pathname}${approval.search}`, {
        form: { token, intent: "approve" },
      }),
    ),
  )) as Response;
  const back = new URL(approved.headers.get("location")!);
  await returnLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
  await returnLoader(args(await requestAs(user, `${back.pathname}${back.search}`)));
}

const receipts = (user: User) =>
  sequelize.query<{ subject: string; text_body: string }>(
    "SELECT subject, text_body FROM mail_outbox WHERE user_id = :id AND topic = 'deposit_receipt' ORDER BY id",
    { replacements: { id: user.id }, type: QueryTypes.SELECT },
  );

describe("deposit receipts", () => {
  it("one e-mail per deposit, naming the amount, the reference and the new deposit", async () => {
    const user = await createTestUser();
    await deposit(user, "1000");
    const first = await receipts(user);
    expect(first).toHaveLength(1);
    expect(first[0].subject).toBe("Receipt: $1,000.00 added to your deposit");
    expect(first[0].text_body).toMatch(
      /We received \$1,000\.00 through test payment \(reference \S+\) and added it to your deposit, once\./,
    );
    expect(first[0].text_body).toContain("Your deposit is now $1,000.00.");
    expect(first[0].text_body).toContain(
      "asked BidYard for receipts for money you add to your deposit",
    );

    await deposit(user, "400.50");
    const second = await receipts(user);
    expect(second).toHaveLength(2);
    expect(second[1].subject).toBe("Receipt: $400.50 added to your deposit");
    expect(second[1].text_body).toContain("Your deposit is now $1,400.50.");
  });

  it("has its own preference: turned off, no receipt, and nothing else stops", async () => {
    const user = await createTestUser();
    expect(MAIL_TOPICS).toContain("deposit_receipt");
    expect(TOPIC_NAMES.deposit_receipt).toBe("Deposit receipts");
    await setMailPreferences(
      user.id,
      MAIL_TOPICS.filter((topic) => topic !== "deposit_receipt"),
    );
    await deposit(user, "500");
    expect(await receipts(user)).toHaveLength(0);
    const [row] = await sequelize.query<{ deposit: string }>(
      "SELECT deposit::text AS deposit FROM users WHERE id = :id",
      { replacements: { id: user.id }, type: QueryTypes.SELECT },
    );
    expect(row.deposit).toBe("500.00");
  });
});
