import { expect, test } from "@playwright/test";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test.use({ viewport: { width: 360, height: 740 } });

test("at 360 px every admin tab fits the screen; wide tables scroll in a labelled region", async ({
  page,
  context,
}) => {
  const id = unique();
  await signInAs(context, `admin-${id}@bidyard.test`, { role: "admin" });
  const long = `a-rather-long-address-for-a-narrow-screen-${id}@bidyard.test`;
  await ensureUser(long, { first_name: "Wide", last_name: `Row${id}` });
  await query(
    "insert into prelaunch_signups (email, first_name, last_name, source, created_at, updated_at) values ($1, 'Wide', 'Signup', 'website', now(), now())",
    [long],
  );

  for (const path of [
    "/admin",
    "/admin?tab=users",
    "/admin?tab=early-access",
    "/admin?tab=kyc",
    "/admin?tab=affiliates",
    "/admin?tab=settings",
    "/admin?tab=audit",
    "/admin/affiliates",
  ]) {
    await page.goto(path);
    await ready(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} is ${width} px wide`).toBeLessThanOrEqual(360);
  }

  for (const tab of ["users", "early-access"]) {
    await page.goto(`/admin?tab=${tab}`);
    await ready(page);
    const region = page.getByRole("region", { name: /table/i }).first();
    await expect(region).toBeVisible();
    await expect(region).toHaveAttribute("tabindex", "0");
    await region.focus();
    await expect(region).toBeFocused();
  }
});
