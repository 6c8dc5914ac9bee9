import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

const unique = (name: string) =>
  `e2e-membership-${name}-${test.info().project.name}-${Date.now()}@bidyard.test`;

const planCard = (page: Page, name: string) =>
  page.getByTestId("plan-card").filter({ has: page.getByRole("heading", { name, exact: true }) });

test("the screen shows the plans, offers and benefits as published", async ({ page, context }) => {
  await signInAs(context, unique("screen"), { first_name: "Mia" });
  await page.goto("/membership");
  await expect(page.getByRole("heading", { name: "Choose Your Membership Plan" })).toBeVisible();
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free");

  const freeTier = page.getByRole("region", { name: "Free Tier Benefits" });
  for (const text of ["Up to 3 vehicle listings", "Basic buyer tools", "Standard support"]) {
    await expect(freeTier.getByText(text)).toBeVisible();
  }

  const offer = page.getByTestId("campaign-card").first();
  await expect(offer.getByText("Limited Time")).toBeVisible();
  await expect(offer.getByText("14-day free trial")).toBeVisible();
  await expect(offer.getByText(/^Valid until \w+ \d{1,2}, \d{4}$/)).toBeVisible();

  const pro = planCard(page, "Pro");
  await expect(pro.getByText("$49.99/month")).toBeVisible();
  await expect(pro.getByText("Most Popular")).toBeVisible();
  await expect(pro.getByText("Unlimited vehicle listings")).toBeVisible();
  await expect(pro.getByText("5 featured listings per month")).toBeVisible();
  await expect(pro.getByText("Priority support")).toBeVisible();
  await expect(pro.getByText("Advanced buyer tools")).toBeVisible();
  await expect(pro.getByText("Seller analytics")).toBeVisible();
  await expect(pro.getByRole("button", { name: "Start 14-Day Free Trial" })).toBeVisible();
  await expect(pro.getByRole("button", { name: "Subscribe Now" })).toBeVisible();

  const basic = planCard(page, "Basic");
  await expect(basic.getByText("$19.99/month")).toBeVisible();
  await expect(basic.getByText("Up to 10 vehicle listings")).toBeVisible();
  await expect(basic.getByText("1 featured listing per month")).toBeVisible();
  await expect(basic.getByText("Most Popular")).toHaveCount(0);
  await expect(basic.getByText("Priority support")).toHaveCount(0);
  await expect(planCard(page, "Premium Yearly").getByText("$499/year")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Why Upgrade" })).toBeVisible();
  if (jsEnabled()) {
    // axe runs as a script in the page, so only where scripts run.
    const audit = await new AxeBuilder({ page }).include("main").analyze();
    expect(
      audit.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`)),
    ).toEqual([]);
  }

  // Three columns on a wide screen, one at 360 px.
  const tops = async () =>
    Promise.all(
      (await page.getByTestId("plan-card").all()).map(async (card) => (await card.boundingBox())!),
    );
  const wide = await tops();
  expect(new Set(wide.map((box) => Math.round(box.y))).size).toBe(1);
  await page.setViewportSize({ width: 360, height: 800 });
  const narrow = await tops();
  expect(new Set(narrow.map((box) => Math.round(box.x))).size).toBe(1);
  expect(Math.max(...narrow.map((box) => box.x + box.width))).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("start a free trial; the offer then goes away", async ({ page, context }) => {
  const userId = await signInAs(context, unique("trial"), { first_name: "Tia" });
  await page.goto("/membership");
  await ready(page);
  await planCard(page, "Pro").getByRole("button", { name: "Start 14-Day Free Trial" }).click();

  await expect(page.getByTestId("toast")).toContainText("Trial Started!");
  await expect(page.getByTestId("toast")).toContainText("Enjoy your free trial period.");
  await expect(page.getByTestId("current-plan-name")).toHaveText("Pro");
  await expect(page.getByTestId("current-plan-status")).toHaveText("Trialing");
  await expect(page.getByTestId("current-plan-period")).toHaveText(
    /^Trial ends on \w+ \d{1,2}, \d{4}$/,
  );
  await expect(planCard(page, "Pro").getByRole("button", { name: "Current Plan" })).toBeDisabled();
  await expect(page.getByRole("button", { name: /Free Trial/ })).toHaveCount(0);
  const rows = await query("select status from memberships where user_id = $1", [userId]);
  expect(rows).toEqual([{ status: "trialing" }]);
});

test("subscribe through the payment page, then cancel to the period end", async ({
  page,
  context,
}) => {
  await signInAs(context, unique("subscribe"), { first_name: "Sub" });
  await page.goto("/membership");
  await ready(page);
  await planCard(page, "Premium Yearly").getByRole("button", { name: "Subscribe Now" }).click();

  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await expect(page.getByTestId("test-checkout-amount")).toHaveText("$499.00");
  await page.getByRole("button", { name: "Approve payment" }).click();

  await expect(page.getByTestId("toast")).toContainText("Subscription Started!");
  await expect(page.getByTestId("toast")).toContainText("Welcome to your new membership plan.");
  await expect(page).toHaveURL(/\/membership$/);
  await expect(page.getByTestId("current-plan-name")).toHaveText("Premium Yearly");
  await expect(page.getByTestId("current-plan-status")).toHaveText("Active");
  const nextYear = new Date();
  nextYear.setUTCFullYear(nextYear.getUTCFullYear() + 1);
  await expect(page.getByTestId("current-plan-period")).toHaveText(
    new RegExp(`^Paid until \\w+ \\d{1,2}, ${nextYear.getUTCFullYear()}$`),
  );
  // Just paid: no Renew Now and no trial offer, but when renewing opens (record 3321).
  await expect(page.getByRole("button", { name: "Renew Now" })).toHaveCount(0);
  await expect(page.getByTestId("renewal-note")).toHaveText(
    new RegExp(
      `^Nothing is charged automatically\\. You can renew from \\w+ \\d{1,2}, ${nextYear.getUTCFullYear()}\\.$`,
    ),
  );
  await expect(page.getByTestId("campaign-card")).toHaveCount(0);
  await expect(page.getByText("Launch Offer: Try Any Plan Free")).toHaveCount(0);
  await expect(
    planCard(page, "Premium Yearly").getByRole("button", { name: "Current Plan" }),
  ).toBeDisabled();
  // A paying member is offered no trial.
  await expect(page.getByRole("button", { name: /Free Trial/ })).toHaveCount(0);
  // Nor a second checkout: one payment per period, a plan change after it (record 3501).
  await expect(page.getByRole("button", { name: "Subscribe Now" })).toHaveCount(0);
  await expect(planCard(page, "Basic").getByTestId("plan-change-note")).toHaveText(
    new RegExp(
      `^You already pay for Premium Yearly until \\w+ \\d{1,2}, ${nextYear.getUTCFullYear()}\\. You can change to Basic once that period ends\\.$`,
    ),
  );

  await ready(page);
  await page.getByRole("button", { name: "Cancel Membership" }).click();
  await expect(page.getByTestId("toast")).toContainText("Membership Cancelled");
  await expect(page.getByTestId("current-plan-status")).toHaveText("Active");
  await expect(page.getByTestId("current-plan-period")).toHaveText(
    /^Cancelled: ends on \w+ \d{1,2}, \d{4} instead of renewing$/,
  );
});

test("a payment cancelled at the payment page changes nothing", async ({ page, context }) => {
  await signInAs(context, unique("cancelled"), { first_name: "Cal" });
  await page.goto("/membership");
  await ready(page);
  await planCard(page, "Basic").getByRole("button", { name: "Subscribe Now" }).click();
  await expect(page.getByTestId("test-checkout-amount")).toHaveText("$19.99");
  await page.getByRole("button", { name: "Cancel" }).click();

  await expect(page.getByTestId("toast")).toContainText("Payment Cancelled");
  await expect(page.getByTestId("toast")).toContainText(
    "You cancelled the payment. Your membership has not changed.",
  );
  await expect(page.getByTestId("current-plan-name")).toHaveText("Free");
});

test("one plan is Most Popular, and a Pro member sees Pro's benefits, not the free tier's", async ({
  page,
  context,
}) => {
  const userId = await signInAs(context, unique("pro-member"), { first_name: "Pam" });
  await query(
    `insert into memberships (user_id, plan_id, status, current_period_start, current_period_end)
     select $1, id, 'active', now(), now() + interval '1 month'
       from membership_plans where code = 'pro-monthly'`,
    [userId],
  );
  await page.goto("/membership");
  await expect(page.getByText("Most Popular", { exact: true })).toHaveCount(1);
  await expect(planCard(page, "Pro").getByText("Most Popular")).toBeVisible();

  await expect(page.getByRole("region", { name: "Free Tier Benefits" })).toHaveCount(0);
  const mine = page.getByRole("region", { name: "Your Pro Benefits" });
  for (const text of ["Unlimited vehicle listings", "5 featured listings per month"]) {
    await expect(mine.getByText(text)).toBeVisible();
  }
  await expect(page.getByText("Up to 3 vehicle listings")).toHaveCount(0);
  // "Why Upgrade" speaks to the free tier ("instead of 3 in all"): not to a member
  await expect(page.getByRole("heading", { name: "Why Upgrade" })).toHaveCount(0);
});

test("subscribing during a trial says first what is charged and keeps the trial's days", async ({
  page,
  context,
}) => {
  const userId = await signInAs(context, unique("trial-keep"), { first_name: "Kip" });
  await page.goto("/membership");
  await ready(page);
  await planCard(page, "Basic").getByRole("button", { name: "Start 14-Day Free Trial" }).click();
  await expect(page.getByTestId("current-plan-status")).toHaveText("Trialing");

  const [{ trial_end: trialEnd }] = await query<{ trial_end: Date }>(
    "select current_period_end as trial_end from memberships where user_id = $1",
    [userId],
  );
  // Membership days are shown in the account's zone (Central until the buyer picks one)
  const day = (date: Date) =>
    new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "America/Chicago",
    }).format(date);
  // When money moves, plainly (record 3321).
  await expect(page.getByTestId("keep-plan-terms")).toHaveText(
    new RegExp(
      `^Charged today: \\$19\\.99, once, for ${day(trialEnd)} to \\w+ \\d{1,2}, \\d{4}\\. Your free trial stays free until ${day(trialEnd)}\\. Nothing is charged automatically later\\.$`,
    ),
  );

  await ready(page);
  await page.getByRole("button", { name: "Keep Basic: Subscribe Now" }).click();
  await expect(page.getByTestId("test-checkout-amount")).toHaveText("$19.99");
  await page.getByRole("button", { name: "Approve payment" }).click();

  await expect(page.getByTestId("toast")).toContainText("Subscription Started!");
  await expect(page.getByTestId("current-plan-status")).toHaveText("Active");
  await expect(page.getByTestId("current-plan-period")).toHaveText(
    new RegExp(`^Free trial until ${day(trialEnd)}, then paid until \\w+ \\d{1,2}, \\d{4}$`),
  );
  const [row] = await query<{ start: Date; end: Date; paid: string }>(
    `select m.current_period_start as start, m.current_period_end as end,
            (select string_agg(amount::text, ',') from membership_purchases p
              where p.user_id = m.user_id and p.status = 'applied') as paid
       from memberships m where m.user_id = $1`,
    [userId],
  );
  expect(new Date(row.start).toISOString()).toBe(new Date(trialEnd).toISOString());
  expect(row.paid).toBe("19.99");
});

test("Renew Now comes near the end of the paid period, saying nothing is charged by itself", async ({
  page,
  context,
}) => {
  await page.setViewportSize(
    jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 800 },
  );
  const userId = await signInAs(context, unique("renew-window"), { first_name: "Ren" });
  await query(
    `insert into memberships (user_id, plan_id, status, current_period_start, current_period_end)
     select $1, id, 'active', now() - interval '25 days', now() + interval '5 days'
       from membership_plans where name = 'Basic'`,
    [userId],
  );
  await page.goto("/membership");
  await ready(page);
  await expect(page.getByTestId("current-plan-period")).toHaveText(
    /^Paid until \w+ \d{1,2}, \d{4}$/,
  );
  await expect(page.getByTestId("renewal-note")).toHaveText(
    /^Nothing is charged automatically: renew now to keep your plan after \w+ \d{1,2}, \d{4}\.$/,
  );
  await expect(page.getByRole("button", { name: "Renew Now" })).toBeVisible();
  // a member is not offered the trial campaign
  await expect(page.getByTestId("campaign-card")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    jsEnabled() ? 1280 : 360,
  );
});
