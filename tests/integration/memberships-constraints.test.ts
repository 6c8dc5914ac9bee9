import { describe, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { createTestUser } from "../support/auth";
import { createTestCampaign, createTestPlan } from "../support/memberships";
import { rejects } from "../support/sql";

const plan = (values: string) =>
  `insert into membership_plans (code, name, price, billing_interval, vehicle_limit) values ${values}`;

describe("membership tables refuse what the application must never write", () => {
  it("plans and campaigns", async () => {
    await rejects(plan("('neg', 'Neg', -1, 'monthly', null)"));
    await rejects(plan("('weekly', 'Weekly', 5, 'weekly', null)"));
    await rejects(plan("('zero-limit', 'Zero', 5, 'monthly', 0)"));
    await rejects(plan("('Bad Code!', 'Bad', 5, 'monthly', null)"));
    await sequelize.query(plan("('dup', 'Dup', 5, 'monthly', null)"));
    await rejects(plan("('dup', 'Dup again', 5, 'monthly', null)"));
    await rejects(
      "insert into campaigns (code, type, name, trial_days, end_date) values ('c1', 'coupon', 'C', 7, now() + interval '1 day')",
    );
    await rejects(
      "insert into campaigns (code, type, name, trial_days, end_date) values ('c2', 'membership_trial', 'C', null, now() + interval '1 day')",
    );
    await rejects(
      "insert into campaigns (code, type, name, trial_days, starts_at, end_date) values ('c3', 'membership_trial', 'C', 7, now(), now() - interval '1 day')",
    );
  });

  it("one membership per user, real statuses, a period that ends after it starts", async () => {
    const user = await createTestUser();
    const pro = await createTestPlan();
    const insert = `insert into memberships (user_id, plan_id, status, current_period_start, current_period_end)
                    values ($1, $2, $3, now(), now() + $4::interval)`;
    await rejects(insert, [user.id, pro.id, "paused", "1 month"]);
    await rejects(insert, [user.id, pro.id, "active", "-1 day"]);
    await sequelize.query(insert, { bind: [user.id, pro.id, "active", "1 month"] });
    await rejects(insert, [user.id, pro.id, "trialing", "14 days"]);
    await rejects("update memberships set cancel_at_period_end = true where user_id = $1", [
      user.id,
    ]);
  });

  it("one trial per user, and a purchase needs a real payment order", async () => {
    const user = await createTestUser();
    const pro = await createTestPlan();
    const campaign = await createTestCampaign();
    const trial = `insert into membership_trials (user_id, campaign_id, plan_id, ends_at)
                   values ($1, $2, $3, now() + interval '14 days')`;
    await sequelize.query(trial, { bind: [user.id, campaign.id, pro.id] });
    await rejects(trial, [user.id, campaign.id, pro.id]);
    await rejects(
      `insert into membership_purchases (user_id, plan_id, kind, amount, payment_order_id)
       values ($1, $2, 'subscribe', 49.99, gen_random_uuid())`,
      [user.id, pro.id],
    );
  });
});
