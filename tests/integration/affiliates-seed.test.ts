import { describe, expect, it } from "vitest";
import { AffiliateApplication, ServiceOrder } from "~/models/affiliate.server";
import { User } from "~/models/user.server";
import { runSeeds } from "../../db/seeds/index";

describe("affiliate demo data", () => {
  it("approves the shipper, leaves the applicant pending, seeds open and claimed orders once", async () => {
    await runSeeds([], () => undefined);
    const count = await ServiceOrder.count();
    await runSeeds([], () => undefined);
    expect(await ServiceOrder.count()).toBe(count);

    const shipper = (await User.findOne({ where: { email: "shipper@bidyard.test" } }))!;
    const applicant = (await User.findOne({ where: { email: "applicant@bidyard.test" } }))!;
    expect(await AffiliateApplication.findOne({ where: { userId: shipper.id } })).toMatchObject({
      status: "approved",
    });
    expect(await AffiliateApplication.findOne({ where: { userId: applicant.id } })).toMatchObject({
      status: "pending",
    });
    expect(await ServiceOrder.count({ where: { status: "open" } })).toBeGreaterThanOrEqual(12);
    const claimed = await ServiceOrder.findAll({ where: { claimedBy: shipper.id } });
    expect(claimed.map((o) => o.status).sort()).toEqual(["claimed", "claimed", "in_progress"]);
  });
});
