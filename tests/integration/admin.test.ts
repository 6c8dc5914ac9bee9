import { describe, expect, it } from "vitest";
import { AdminAuditEntry } from "~/models/admin.server";
import { sequelize } from "~/models/db.server";
import { PrelaunchSignup, User } from "~/models/user.server";
import * as dashboard from "~/routes/admin._index/route";
import * as csv from "~/routes/admin.early-access[.]csv";
import * as editUser from "~/routes/admin.users.$id";
import * as apiAudit from "~/routes/api.admin.audit";
import * as apiSignups from "~/routes/api.admin.prelaunch-signups";
import * as apiSettings from "~/routes/api.admin.settings";
import * as apiStats from "~/routes/api.admin.stats";
import * as apiUser from "~/routes/api.admin.users.$id";
import * as apiUsers from "~/routes/api.admin.users";
import { getSettings, maintenanceGate } from "~/services/admin/settings.server";
import { createTestUser, requestAs } from "../support/auth";

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => unknown;

async function run(handler: Handler, request: Request, params: Record<string, string> = {}) {
  try {
    const result = await handler({ request, params, context: {} });
    return result instanceof Response
      ? result
      : new Response(JSON.stringify(result), { status: 200 });
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

const status = async (handler: Handler, request: Request, params: Record<string, string> = {}) =>
  (await run(handler, request, params)).status;

describe("admin access", () => {
  it("refuses visitors and non-admins on every admin page and call", async () => {
    const someone = await createTestUser();
    const admin = await createTestUser({ role: "admin" });
    const target = await createTestUser();
    const gets: Array<[Handler, string, Record<string, string>?]> = [
      [dashboard.loader as Handler, "/admin"],
      [dashboard.loader as Handler, "/admin?tab=settings"],
      [editUser.loader as Handler, `/admin/users/${target.id}`, { id: target.id }],
      [csv.loader as Handler, "/admin/early-access.csv"],
      [apiStats.loader as Handler, "/api/admin/stats"],
      [apiSignups.loader as Handler, "/api/admin/prelaunch-signups"],
      [apiUsers.loader as Handler, "/api/admin/users"],
      [apiSettings.loader as Handler, "/api/admin/settings"],
      [apiAudit.loader as Handler, "/api/admin/audit"],
    ];
    for (const [handler, path, params = {}] of gets) {
      const visitor = await run(handler, await requestAs(null, path), params);
      expect([302, 401], path).toContain(visitor.status);
      if (visitor.status === 302)
        expect(visitor.headers.get("location")).toMatch(/^\/api\/login\?returnTo=/);
      expect(await status(handler, await requestAs(someone, path), params), path).toBe(403);
      expect(await status(handler, await requestAs(admin, path), params), path).toBe(200);
    }
    const posts: Array<
      [
        Handler,
        string,
        RequestInit & { json?: unknown; form?: Record<string, string> },
        Record<string, string>?,
      ]
    > = [
      [dashboard.action as Handler, "/admin", { form: { intent: "maintenance", enabled: "true" } }],
      [
        editUser.action as Handler,
        `/admin/users/${target.id}`,
        { form: { intent: "confirm", role: "admin", verified: "true" } },
        { id: target.id },
      ],
      [
        apiUser.action as Handler,
        `/api/admin/users/${target.id}`,
        { json: { role: "admin", verified: true } },
        { id: target.id },
      ],
      [apiSettings.action as Handler, "/api/admin/settings", { json: { maintenanceMode: true } }],
    ];
    for (const [handler, path, init, params = {}] of posts) {
      expect([302, 401], path).toContain(
        await status(handler, await requestAs(null, path, init), params),
      );
      expect(await status(handler, await requestAs(someone, path, init), params), path).toBe(403);
    }
    await target.reload();
    expect(target.role).toBe("user");
    expect((await getSettings()).maintenanceMode).toBe(false);
    expect(await AdminAuditEntry.count({ where: { adminId: someone.id } })).toBe(0);
  });
});

describe("admin actions", () => {
  it("edit a user only after confirmation, and audit it", async () => {
    const admin = await createTestUser({ role: "admin" });
    const target = await createTestUser();
    const path = `/admin/users/${target.id}`;
    const review = await run(
      editUser.action as Handler,
      await requestAs(admin, path, { form: { intent: "review", role: "admin", verified: "true" } }),
      { id: target.id },
    );
    expect(review.status).toBe(200);
    await target.reload();
    expect(target.role).toBe("user");

    const confirm = await run(
      editUser.action as Handler,
      await requestAs(admin, path, {
        form: { intent: "confirm", role: "admin", verified: "true" },
      }),
      { id: target.id },
    );
    expect(confirm.status).toBe(302);
    await target.reload();
    expect(target).toMatchObject({ role: "admin", verified: true });
    const entry = await AdminAuditEntry.findOne({ where: { targetId: target.id } });
    expect(entry).toMatchObject({
      adminId: admin.id,
      action: "user.update",
      before: { role: "user", verified: false },
      after: { role: "admin", verified: true },
    });
  });

  it("answers bad edits with 4xx and writes nothing", async () => {
    const admin = await createTestUser({ role: "admin" });
    const target = await createTestUser();
    const params = { id: target.id };
    const path = `/api/admin/users/${target.id}`;
    const cases: Array<RequestInit & { json?: unknown }> = [
      { json: { role: "owner", verified: true } },
      { json: { role: "admin" } },
      { json: { role: "admin", verified: "yes" } },
      { json: { role: "admin", verified: true, deposit: "1000000" } },
      { body: "{not json", headers: { "Content-Type": "application/json" }, method: "POST" },
      { body: "role=admin", headers: { "Content-Type": "text/plain" }, method: "POST" },
    ];
    for (const init of cases) {
      const response = await run(
        apiUser.action as Handler,
        await requestAs(admin, path, init),
        params,
      );
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expect(
      await status(
        apiUser.action as Handler,
        await requestAs(admin, "/api/admin/users/nope", {
          json: { role: "user", verified: false },
        }),
        { id: "nope" },
      ),
    ).toBe(404);
    // an id that cannot be a user's answers 404 whatever its body, which is not read
    expect(
      await status(
        apiUser.action as Handler,
        await requestAs(admin, "/api/admin/users/nope", { json: { role: "owner" } }),
        { id: "nope" },
      ),
    ).toBe(404);
    const selfDemote = await run(
      apiUser.action as Handler,
      await requestAs(admin, `/api/admin/users/${admin.id}`, {
        json: { role: "user", verified: true },
      }),
      { id: admin.id },
    );
    expect(selfDemote.status).toBe(400);
    await target.reload();
    await admin.reload();
    expect(target.role).toBe("user");
    expect(admin.role).toBe("admin");
    expect(await AdminAuditEntry.count({ where: { adminId: admin.id } })).toBe(0);
  });

  it("searches users and pages through them by keyset", async () => {
    const admin = await createTestUser({ role: "admin", firstName: "Zelda" });
    for (let i = 0; i < 30; i++) await createTestUser({ lastName: `Paging${i}` });
    const first = await run(
      apiUsers.loader as Handler,
      await requestAs(admin, "/api/admin/users?q=paging&limit=20"),
    );
    const page1 = (await first.json()) as { users: Array<{ email: string }>; next: string };
    expect(page1.users).toHaveLength(20);
    const second = await run(
      apiUsers.loader as Handler,
      await requestAs(admin, `/api/admin/users?q=paging&limit=20&after=${page1.next}`),
    );
    const page2 = (await second.json()) as { users: Array<{ email: string }>; next: string | null };
    expect(page2.users).toHaveLength(10);
    expect(page2.next).toBeNull();
    const all = new Set([...page1.users, ...page2.users].map((u) => u.email));
    expect(all.size).toBe(30);
    const byName = await run(
      apiUsers.loader as Handler,
      await requestAs(admin, "/api/admin/users?q=zeld"),
    );
    expect(((await byName.json()) as { users: unknown[] }).users).toHaveLength(1);
  });

  it("exports early-access signups as CSV, defusing spreadsheet formulas", async () => {
    const admin = await createTestUser({ role: "admin" });
    await PrelaunchSignup.create({
      email: "early1@bidyard.test",
      firstName: '=HYPERLINK("x")',
      lastName: "O'Neil, Jr",
    });
    const response = await run(
      csv.loader as Handler,
      await requestAs(admin, "/admin/early-access.csv"),
    );
    expect(response.headers.get("content-type")).toContain("text/csv");
    const text = await response.text();
    expect(text.split("\r\n")[0]).toBe(
      "id,email,first_name,last_name,source,created_at (America/Chicago),created_at_utc",
    );
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain(`"O'Neil, Jr"`);
  });

  it("writes the CSV's times in the admin's own zone, named, with UTC beside them", async () => {
    const admin = await createTestUser({ role: "admin" });
    await admin.update({ timeZone: "America/New_York" });
    const signup = await PrelaunchSignup.create({ email: "zone@bidyard.test" });
    await sequelize.query(
      "UPDATE prelaunch_signups SET created_at = '2026-11-27T03:30:00Z' WHERE id = :id",
      { replacements: { id: signup.id } },
    );
    const response = await run(
      csv.loader as Handler,
      await requestAs(admin, "/admin/early-access.csv"),
    );
    const [header, ...rows] = (await response.text()).split("\r\n");
    expect(header).toContain("created_at (America/New_York),created_at_utc");
    const line = rows.find((row) => row.includes("zone@bidyard.test"));
    // 03:30 UTC on the 27th is 22:30 the evening before in New York.
    expect(line).toContain("2026-11-26 22:30:00 EST,2026-11-27T03:30:00.000Z");
  });

  it("maintenance mode shows non-admins the maintenance page and lets admins and sign-in through", async () => {
    const admin = await createTestUser({ role: "admin" });
    const someone = await createTestUser();
    const turnOn = await run(
      dashboard.action as Handler,
      await requestAs(admin, "/admin", { form: { intent: "maintenance", enabled: "true" } }),
    );
    expect(turnOn.status).toBe(302);
    const blocked = await maintenanceGate(
      new Request("http://localhost:3000/auctions"),
      someone,
    ).catch((e) => e as Response);
    expect((blocked as Response).status).toBe(503);
    await expect(
      maintenanceGate(new Request("http://localhost:3000/auctions"), admin),
    ).resolves.toBeUndefined();
    await expect(
      maintenanceGate(new Request("http://localhost:3000/api/login"), null),
    ).resolves.toBeUndefined();
    const entry = await AdminAuditEntry.findOne({ where: { action: "settings.maintenance_mode" } });
    expect(entry).toMatchObject({ before: false, after: true, adminEmail: admin.email });

    await run(
      apiSettings.action as Handler,
      await requestAs(admin, "/api/admin/settings", {
        json: {
          maintenanceMode: false,
          registrationOpen: false,
          betaBanner: { enabled: false, text: "Launching soon" },
        },
      }),
    );
    expect(await getSettings()).toEqual({
      maintenanceMode: false,
      registrationOpen: false,
      betaBanner: { enabled: false, text: "Launching soon" },
    });
    await expect(
      maintenanceGate(new Request("http://localhost:3000/auctions"), someone),
    ).resolves.toBeUndefined();
    expect(await AdminAuditEntry.count({ where: { adminId: admin.id } })).toBe(4);
  });

  it("counts the stat cards from the database", async () => {
    const admin = await createTestUser({ role: "admin", verified: true });
    await createTestUser({ verified: true });
    await PrelaunchSignup.create({ email: "stats@bidyard.test", firstName: null, lastName: null });
    const response = await run(
      apiStats.loader as Handler,
      await requestAs(admin, "/api/admin/stats"),
    );
    const stats = (await response.json()) as Record<string, number>;
    expect(stats.totalUsers).toBe(await User.count());
    expect(stats.verifiedUsers).toBe(await User.count({ where: { verified: true } }));
    expect(stats.earlyAccess).toBe(await PrelaunchSignup.count());
    expect(stats.pendingKyc).toBe(0);
  });
});
