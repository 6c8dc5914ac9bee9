import { describe, expect, it } from "vitest";
import { AdminAuditEntry } from "~/models/admin.server";
import * as dashboard from "~/routes/admin._index/route";
import * as apiSettings from "~/routes/api.admin.settings";
import * as registration from "~/routes/affiliate-registration/route";
import { AffiliateApplication } from "~/models/affiliate.server";
import { createAffiliate } from "../support/affiliates";
import { getSettings } from "~/services/admin/settings.server";
import { createTestUser, requestAs } from "../support/auth";

type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: object;
}) => unknown;

async function run(handler: Handler, request: Request, params: Record<string, string> = {}) {
  try {
    const result = await handler({ request, params, context: {} });
    if (result instanceof Response) return result;
    const maybe = result as { data?: unknown; init?: { status?: number } | null };
    if (maybe && typeof maybe === "object" && "init" in maybe && "data" in maybe) {
      return Response.json(maybe.data, { status: maybe.init?.status ?? 200 });
    }
    return Response.json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

describe("admin settings: the beta banner text", () => {
  it("refuses an empty banner text from the form with a field message and saves nothing", async () => {
    const admin = await createTestUser({ role: "admin" });
    const before = await getSettings();
    const response = await run(
      dashboard.action as Handler,
      await requestAs(admin, "/admin?tab=settings", {
        form: { intent: "beta-banner", enabled: "true", text: "   " },
      }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error.text).toEqual(["Enter the banner text"]);
    expect(await getSettings()).toEqual(before);
    expect(await AdminAuditEntry.count({ where: { adminId: admin.id } })).toBe(0);
  });

  it("refuses an empty banner text on the JSON call with the same message", async () => {
    const admin = await createTestUser({ role: "admin" });
    const before = await getSettings();
    const response = await run(
      apiSettings.action as Handler,
      await requestAs(admin, "/api/admin/settings", {
        json: { betaBanner: { enabled: true, text: "" } },
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "Enter the banner text",
      field: "betaBanner.text",
    });
    expect(await getSettings()).toEqual(before);
  });
});

describe("affiliate registration: applying again after a rejection", () => {
  it("prefills the form from the rejected application", async () => {
    const user = await createAffiliate("rejected");
    await AffiliateApplication.update(
      { serviceAreas: ["Texas", "Oklahoma"], businessEmail: "ops@carrier.test" },
      { where: { userId: user.id } },
    );
    const body = (await (
      await run(registration.loader as Handler, await requestAs(user, "/affiliate-registration"))
    ).json()) as { prefill: Record<string, unknown> | null };
    expect(body.prefill).toEqual({
      companyName: `Carrier ${user.lastName}`,
      serviceTypes: ["shipping", "export"],
      businessPhone: "214-555-0100",
      businessEmail: "ops@carrier.test",
      serviceAreas: "Texas, Oklahoma",
    });
  });

  it("leaves the form empty for someone who never applied", async () => {
    const user = await createTestUser();
    const body = (await (
      await run(registration.loader as Handler, await requestAs(user, "/affiliate-registration"))
    ).json()) as { prefill: unknown };
    expect(body.prefill).toBeNull();
  });
});
