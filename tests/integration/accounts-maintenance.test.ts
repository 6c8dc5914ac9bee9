// While maintenance mode is on, the admins who still get in are told so on every page.
import { afterAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "~/root";
import { updateSetting } from "~/services/admin/settings.server";
import { createTestUser, requestAs } from "../support/auth";
import { args } from "../support/routes";

describe("the maintenance notice in the root loader", () => {
  afterAll(async () => {
    const admin = await createTestUser({ role: "admin" });
    await updateSetting(admin, "maintenanceMode", false);
  });

  it("is on for an admin while maintenance mode is on, and only then", async () => {
    const admin = await createTestUser({ role: "admin" });
    const off = await rootLoader(args(await requestAs(admin, "/auctions")));
    expect(off.data.maintenanceNotice).toBe(false);

    await updateSetting(admin, "maintenanceMode", true);
    for (const path of ["/", "/auctions", "/admin"]) {
      const on = await rootLoader(args(await requestAs(admin, path)));
      expect(on.data.maintenanceNotice, path).toBe(true);
    }

    // Everyone else still gets the maintenance page, not the notice; the page is told who is
    // signed in, so it greets them rather than offering Sign In / Register.
    const buyer = await createTestUser({ firstName: "Bea" });
    const refused = (await rootLoader(args(await requestAs(buyer, "/auctions"))).catch(
      (thrown: unknown) => thrown,
    )) as { data: unknown; init: { status: number } };
    expect(refused.init.status).toBe(503);
    expect(refused.data).toMatchObject({
      maintenance: true,
      user: { firstName: "Bea", email: buyer.email },
    });
    const anonymous = (await rootLoader(args(new Request("http://localhost:3000/"))).catch(
      (thrown: unknown) => thrown,
    )) as { data: unknown; init: { status: number } };
    expect(anonymous.init.status).toBe(503);
    expect(anonymous.data).toMatchObject({ maintenance: true, user: null });

    await updateSetting(admin, "maintenanceMode", false);
    const again = await rootLoader(args(await requestAs(admin, "/")));
    expect(again.data.maintenanceNotice).toBe(false);
  });
});
