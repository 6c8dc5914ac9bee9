// While maintenance mode is on, the admins who still get in are told so on every page.
import { afterAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "~/root";
import { updateSetting } from "~/services/admin/settings.server";
import { createTestUser, requestAs } from "../support/auth";

const args = (request: Request) => ({ request, params: {}, context: {} });

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

    // Everyone else still gets the maintenance page, not the notice.
    const buyer = await createTestUser();
    const refused = await rootLoader(args(await requestAs(buyer, "/auctions"))).catch(
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(503);

    await updateSetting(admin, "maintenanceMode", false);
    const again = await rootLoader(args(await requestAs(admin, "/")));
    expect(again.data.maintenanceNotice).toBe(false);
  });
});
