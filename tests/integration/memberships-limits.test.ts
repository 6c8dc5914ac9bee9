import { describe, expect, it } from "vitest";
import { Listing } from "~/models/listing.server";
import { Membership } from "~/models/membership.server";
import { action as postVehicleAction } from "~/routes/post-vehicle";
import { listingAllowance } from "~/services/listings/allowance.server";
import { createListing, ListingLimitError } from "~/services/listings/listings.server";
import { startTrial } from "~/services/memberships/memberships.server";
import { listingSchema } from "~/services/listings/schemas";
import { createTestUser, requestAs } from "../support/auth";
import { createTestCampaign, createTestPlan } from "../support/memberships";

const DAY_MS = 24 * 60 * 60 * 1000;
const FORM = {
  title: "2019 Toyota Camry XLE",
  make: "Toyota",
  model: "Camry",
  year: "2019",
  price: "18500",
  currency: "USD",
  condition: "good",
  country: "US",
  city: "Austin",
};
const input = listingSchema.parse(FORM);

async function expire(userId: string) {
  await Membership.update(
    {
      currentPeriodStart: new Date(Date.now() - 30 * DAY_MS),
      currentPeriodEnd: new Date(Date.now() - 1000),
    },
    { where: { userId } },
  );
}

async function postThroughPage(user: Awaited<ReturnType<typeof createTestUser>>) {
  return (await postVehicleAction({
    request: await requestAs(user, "/post-vehicle", { form: FORM }),
    params: {},
    context: {},
  })) as Response;
}

describe("listing limits read the membership", () => {
  it("a member on an unlimited plan posts past 3; after expiry the free limit returns", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ vehicleLimit: null });
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });

    for (let i = 0; i < 5; i++) {
      const response = await postThroughPage(user);
      expect(response.headers.get("location")).toMatch(/^\/vehicle\/\d+$/);
    }
    expect(await listingAllowance(user.id)).toMatchObject({
      hasMembership: true,
      unlimited: true,
      activeListings: 5,
      canPost: true,
    });

    await expire(user.id);
    expect(await listingAllowance(user.id)).toMatchObject({
      hasMembership: false,
      unlimited: false,
      limit: 3,
      remainingFreeListings: 0,
      canPost: false,
    });
    const refused = await postThroughPage(user);
    expect(refused.headers.get("location")).toBe("/membership");
    expect(await Listing.count({ where: { userId: user.id } })).toBe(5);
  });

  it("a plan's vehicle limit caps ACTIVE listings", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99", vehicleLimit: 4 });
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    for (let i = 0; i < 4; i++) await createListing(user.id, input);
    await expect(createListing(user.id, input)).rejects.toBeInstanceOf(ListingLimitError);
    expect(await listingAllowance(user.id)).toMatchObject({
      hasMembership: true,
      unlimited: false,
      limit: 4,
      activeListings: 4,
      canPost: false,
    });
  });

  it("parallel posts by a member never pass the plan's limit", async () => {
    const user = await createTestUser();
    const plan = await createTestPlan({ name: "Basic", price: "19.99", vehicleLimit: 4 });
    const campaign = await createTestCampaign();
    await startTrial(user.id, { planId: plan.id, campaignId: campaign.id });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => createListing(user.id, input)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect(await Listing.count({ where: { userId: user.id, status: "active" } })).toBe(4);
  });
});
