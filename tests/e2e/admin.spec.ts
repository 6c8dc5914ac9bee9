import { expect, test } from "@playwright/test";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

test("a non-admin gets Access Denied at /admin", async ({ page, context }) => {
  await signInAs(context, `plain-${unique()}@bidyard.test`);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
});

test("an admin edits a user after confirming, and the audit log shows it", async ({
  page,
  context,
}) => {
  const id = unique();
  await signInAs(context, `admin-${id}@bidyard.test`, { role: "admin", first_name: "Ada" });
  const email = `target-${id}@bidyard.test`;
  const targetId = await ensureUser(email, { first_name: "Tess", last_name: `Target${id}` });

  await page.goto(`/admin?tab=users&q=${encodeURIComponent(`target-${id}`)}`);
  await ready(page);
  await expect(page.getByRole("heading", { name: "Admin Dashboard" })).toBeVisible();
  for (const label of ["Total Users", "Early Access", "Pending KYC", "Verified Users"]) {
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
  }
  await page.getByRole("link", { name: `Edit ${email}` }).click();
  await ready(page);
  await page.getByLabel("Identity verification").selectOption("true");
  await page.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByRole("heading", { name: "Confirm changes" })).toBeVisible();
  await expect(page.getByText("Verification: Pending → Verified")).toBeVisible();
  const [before] = await query<{ verified: boolean }>("select verified from users where id = $1", [
    targetId,
  ]);
  expect(before.verified).toBe(false);
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/admin\?tab=users$/);
  const [after] = await query<{ verified: boolean }>("select verified from users where id = $1", [
    targetId,
  ]);
  expect(after.verified).toBe(true);

  await page.goto("/admin?tab=audit");
  await expect(page.getByRole("cell", { name: `user ${targetId}` })).toBeVisible();
});

test("an admin sees live system status and the early-access export", async ({ page, context }) => {
  await signInAs(context, `admin-${unique()}@bidyard.test`, { role: "admin" });
  await page.goto("/admin?tab=settings");
  await expect(page.getByText("Database", { exact: true })).toBeVisible();
  await expect(page.getByText("PostgreSQL answers")).toBeVisible();
  await expect(page.getByText(/TEST MODE/)).toBeVisible();
  await page.goto("/admin?tab=early-access");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    "/admin/early-access.csv",
  );
});

test("an admin approves an identity document from the KYC Review tab", async ({
  page,
  context,
}) => {
  const id = unique();
  await signInAs(context, `admin-kyc-${id}@bidyard.test`, { role: "admin" });
  const userId = await ensureUser(`kyc-${id}@bidyard.test`, {
    first_name: "Kya",
    last_name: `Doc${id}`,
  });
  const key = `kyc/e2e${id.replace(/[^A-Za-z0-9]/g, "")}`;
  const [upload] = await query<{ id: string }>(
    `insert into uploads (user_id, purpose, object_key, content_type, size_bytes, status, expires_at)
     values ($1, 'kyc_document', $2, 'image/png', 100, 'attached', now() + interval '1 hour') returning id`,
    [userId, key],
  );
  await query(
    `insert into kyc_documents (user_id, upload_id, document_type, object_key, content_type, size_bytes)
     values ($1, $2, 'state_id', $3, 'image/png', 100)`,
    [userId, upload.id, key],
  );

  await page.goto("/admin?tab=kyc");
  await ready(page);
  const item = page.getByRole("listitem", { name: `Kya Doc${id}, State ID` });
  await expect(item).toBeVisible();
  await expect(item.getByRole("link", { name: /View/ })).toBeVisible();
  await item.getByRole("button", { name: /Approve/ }).click();
  await expect(page).toHaveURL(/\/admin\?tab=kyc$/);
  await expect(page.getByRole("listitem", { name: `Kya Doc${id}, State ID` })).toHaveCount(0);
  const [user] = await query<{ verified: boolean }>("select verified from users where id = $1", [
    userId,
  ]);
  expect(user.verified).toBe(true);
  await page.goto("/admin?tab=audit");
  await expect(page.getByRole("cell", { name: "kyc.approve" }).first()).toBeVisible();
});
