import { describe, expect, it } from "vitest";
import { AffiliateApplication } from "~/models/affiliate.server";
import { Notification } from "~/models/notification.server";
import { User } from "~/models/user.server";
import * as registration from "~/routes/affiliate-registration/route";
import * as adminPage from "~/routes/admin_.affiliates/route";
import * as apiApply from "~/routes/api.affiliates";
import * as apiMe from "~/routes/api.affiliates.me";
import * as apiApprove from "~/routes/api.admin.affiliates.$id.approve";
import * as apiReject from "~/routes/api.admin.affiliates.$id.reject";
import { toastCookie } from "~/http/cookies.server";
import { APPLICATION_MESSAGES } from "~/services/affiliates/messages";
import { createAdmin } from "../support/affiliates";
import { createTestUser, requestAs } from "../support/auth";

const form = {
  companyName: "Lone Star Transport",
  serviceTypes: ["shipping", "export"],
  businessPhone: "214-555-0100",
  businessEmail: "ops@lonestar.test",
  serviceAreas: " Texas, Oklahoma ,, Louisiana ",
  agreeToTerms: "on",
};

async function toastOf(response: Response) {
  const header = response.headers.get("set-cookie") ?? "";
  return toastCookie.parse(header.split(/,(?=\s*__)/).find((c) => c.includes("__toast")) ?? "");
}

async function apply(user: User | null, fields: Record<string, string | string[]>) {
  const request = await requestAs(user, "/affiliate-registration", { form: fields });
  return registration.action({ request, params: {}, context: {} }) as Promise<
    Response | { data: { error?: Record<string, string[]> }; init: { status: number } }
  >;
}

describe("the affiliate application form", () => {
  it("files the application, splits service areas and goes home with the spec's toast", async () => {
    const user = await createTestUser();
    const response = (await apply(user, form)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    expect(await toastOf(response)).toMatchObject({
      title: "Application Submitted",
      description: "Your affiliate application has been submitted for review.",
    });
    const stored = await AffiliateApplication.findOne({ where: { userId: user.id } });
    expect(stored).toMatchObject({
      companyName: "Lone Star Transport",
      serviceTypes: ["shipping", "export"],
      serviceAreas: ["Texas", "Oklahoma", "Louisiana"],
      status: "pending",
    });
    expect((await User.findByPk(user.id))!.accountType).toBe("affiliate");

    const { data: view } = await registration.loader({
      request: await requestAs(user, "/affiliate-registration"),
      params: {},
      context: {},
    });
    expect(view.application).toMatchObject({ status: "pending", approved: false });
  });

  it("answers 400 with every field's message and writes nothing", async () => {
    const user = await createTestUser();
    const result = (await apply(user, {
      companyName: "",
      businessPhone: "",
      businessEmail: "nope",
      serviceAreas: " , ",
    })) as { data: { error: Record<string, string[]> }; init: { status: number } };
    expect(result.init.status).toBe(400);
    expect(result.data.error).toMatchObject(
      Object.fromEntries(Object.entries(APPLICATION_MESSAGES).map(([k, v]) => [k, [v]])),
    );
    expect(await AffiliateApplication.count({ where: { userId: user.id } })).toBe(0);
  });

  it("prefills the business e-mail from the user's e-mail", async () => {
    const user = await createTestUser();
    const { data: view } = await registration.loader({
      request: await requestAs(user, "/affiliate-registration"),
      params: {},
      context: {},
    });
    expect(view).toMatchObject({ email: user.email, application: null });
  });

  it("refuses a second application with a clear 409, by form and by JSON", async () => {
    const user = await createTestUser();
    await apply(user, form);
    const again = (await apply(user, { ...form, companyName: "Second Try" })) as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(again.init.status).toBe(409);
    expect(again.data.error[""]).toEqual([expect.stringContaining("already applied")]);

    const json = await apiApply.action({
      request: await requestAs(user, "/api/affiliates", {
        json: { ...form, serviceAreas: ["Ohio"] },
      }),
      params: {},
      context: {},
    });
    expect(json.status).toBe(409);
    expect((await json.json()).error).toMatch(/already applied/);
    const rows = await AffiliateApplication.findAll({ where: { userId: user.id } });
    expect(rows.map((r) => r.companyName)).toEqual(["Lone Star Transport"]);
  });

  it("even two at once make one application", async () => {
    const user = await createTestUser();
    const results = await Promise.all([apply(user, form), apply(user, form), apply(user, form)]);
    const statuses = results.map((r) => (r instanceof Response ? r.status : r.init.status));
    expect(statuses.sort()).toEqual([302, 409, 409]);
    expect(await AffiliateApplication.count({ where: { userId: user.id } })).toBe(1);
  });
});

describe("the JSON calls", () => {
  it("POST /api/affiliates validates, creates, and GET /api/affiliates/me reads it back", async () => {
    const user = await createTestUser();
    const me = async () =>
      (
        await apiMe.loader({
          request: await requestAs(user, "/api/affiliates/me"),
          params: {},
          context: {},
        })
      ).json();
    expect(await me()).toBeNull();

    const bad = await apiApply.action({
      request: await requestAs(user, "/api/affiliates", { json: { companyName: "X" } }),
      params: {},
      context: {},
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fieldErrors).toMatchObject({
      serviceTypes: APPLICATION_MESSAGES.serviceTypes,
      businessEmail: APPLICATION_MESSAGES.businessEmail,
    });

    const forged = await apiApply.action({
      request: await requestAs(user, "/api/affiliates", {
        json: { ...form, serviceAreas: ["Ohio"], licenseDocumentUrl: "/objects/kyc/abc" },
      }),
      params: {},
      context: {},
    });
    expect(forged.status).toBe(400);
    expect(await AffiliateApplication.count({ where: { userId: user.id } })).toBe(0);

    const created = await apiApply.action({
      request: await requestAs(user, "/api/affiliates", {
        json: {
          companyName: "Export Co",
          serviceTypes: ["export"],
          businessPhone: "305-555-0100",
          businessEmail: "x@export.test",
          serviceAreas: [" Florida ", ""],
        },
      }),
      params: {},
      context: {},
    });
    expect(created.status).toBe(201);
    expect(await me()).toMatchObject({
      companyName: "Export Co",
      serviceAreas: ["Florida"],
      licenseDocumentUrl: null,
      approved: false,
      status: "pending",
    });
  });

  it("answers 401 without a session", async () => {
    const response = await apiApply
      .action({
        request: await requestAs(null, "/api/affiliates", { json: form }),
        params: {},
        context: {},
      })
      .catch((thrown: Response) => thrown);
    expect(response.status).toBe(401);
  });
});

describe("admin review", () => {
  it("approves through the page (form) and notifies the applicant", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    await apply(user, form);
    const application = (await AffiliateApplication.findOne({ where: { userId: user.id } }))!;

    const list = await adminPage.loader({
      request: await requestAs(admin, "/admin/affiliates"),
      params: {},
      context: {},
    });
    expect(list.pending.map((a) => a.id)).toContain(String(application.id));

    const response = await adminPage.action({
      request: await requestAs(admin, "/admin/affiliates", {
        form: { applicationId: String(application.id), decision: "approve" },
      }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(303);
    await application.reload();
    expect(application).toMatchObject({ status: "approved", reviewedBy: admin.id });
    // Recent decisions name the deciding admin and carry the moment of the decision.
    await admin.update({ firstName: "Dana", lastName: "Decider" });
    const after = await adminPage.loader({
      request: await requestAs(admin, "/admin/affiliates"),
      params: {},
      context: {},
    });
    const decided = after.decided.find((a) => a.id === String(application.id));
    expect(decided).toMatchObject({
      decidedBy: "Dana Decider",
      reviewedAt: application.reviewedAt!.toISOString(),
    });
    const notes = await Notification.findAll({ where: { userId: user.id } });
    expect(notes.map((n) => n.kind)).toEqual(["affiliate_approved"]);

    const { data: view } = await registration.loader({
      request: await requestAs(user, "/affiliate-registration"),
      params: {},
      context: {},
    });
    expect(view.application).toMatchObject({ approved: true });
  });

  it("rejects through JSON with a reason the applicant sees; the applicant may apply again", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    await apply(user, form);
    const application = (await AffiliateApplication.findOne({ where: { userId: user.id } }))!;
    const call = (reason?: string) =>
      requestAs(admin, `/api/admin/affiliates/${application.id}/reject`, {
        json: reason === undefined ? {} : { reason },
      }).then((request) =>
        apiReject.action({ request, params: { id: String(application.id) }, context: {} }),
      );
    expect((await call()).status).toBe(400);
    expect((await call("No licence on file")).status).toBe(200);
    expect((await call("again")).status).toBe(409);
    const notes = await Notification.findAll({ where: { userId: user.id } });
    expect(notes[0]).toMatchObject({ kind: "affiliate_rejected", body: "No licence on file" });

    const retry = (await apply(user, { ...form, companyName: "Fixed Co" })) as Response;
    expect(retry.status).toBe(302);
    await application.reload();
    expect(application).toMatchObject({
      companyName: "Fixed Co",
      status: "pending",
      rejectionReason: null,
    });
  });

  it("refuses review to anyone but an admin", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    await apply(other, form);
    const application = (await AffiliateApplication.findOne({ where: { userId: other.id } }))!;
    const response = await apiApprove
      .action({
        request: await requestAs(user, `/api/admin/affiliates/${application.id}/approve`, {
          json: {},
        }),
        params: { id: String(application.id) },
        context: {},
      })
      .catch((thrown: Response) => thrown);
    expect(response.status).toBe(403);
    const page = await adminPage
      .loader({ request: await requestAs(user, "/admin/affiliates"), params: {}, context: {} })
      .catch((thrown: Response) => thrown);
    expect((page as Response).status).toBe(403);
    await application.reload();
    expect(application.status).toBe("pending");
  });
});
