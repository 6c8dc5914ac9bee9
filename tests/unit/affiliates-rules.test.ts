import { describe, expect, it } from "vitest";
import { PROGRESS, quotePayoutCents, splitPayout } from "~/services/affiliates/rules";
import { APPLICATION_MESSAGES } from "~/services/affiliates/messages";
import {
  AffiliateApplicationFormSchema,
  AffiliateApplicationSchema,
} from "~/services/affiliates/schemas";

const valid = {
  companyName: "Lone Star Transport",
  serviceTypes: ["shipping"],
  businessPhone: "214-555-0100",
  businessEmail: "ops@lonestar.test",
  serviceAreas: "Texas, Oklahoma",
  agreeToTerms: "on",
};

function messages(input: Record<string, unknown>) {
  const result = AffiliateApplicationFormSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe("affiliate application rules", () => {
  it("accepts a complete application and normalises it", () => {
    const result = AffiliateApplicationFormSchema.parse({
      ...valid,
      serviceTypes: "export",
      businessEmail: " OPS@LoneStar.test ",
      serviceAreas: " Texas ,, Oklahoma, ",
    });
    expect(result).toMatchObject({
      serviceTypes: ["export"],
      businessEmail: "ops@lonestar.test",
      serviceAreas: ["Texas", "Oklahoma"],
      agreeToTerms: true,
    });
  });

  it("gives each field its message", () => {
    expect(messages({})).toEqual(APPLICATION_MESSAGES);
    expect(
      messages({
        ...valid,
        companyName: "  ",
        serviceTypes: [],
        businessPhone: "",
        businessEmail: "not-an-email",
        serviceAreas: " , ,",
        agreeToTerms: undefined,
      }),
    ).toEqual(APPLICATION_MESSAGES);
    expect(messages({ ...valid, serviceTypes: ["towing"] })).toEqual({
      serviceTypes: APPLICATION_MESSAGES.serviceTypes,
    });
  });

  it("the JSON call takes serviceAreas as a list and needs no terms box", () => {
    const result = AffiliateApplicationSchema.parse({
      ...valid,
      serviceAreas: [" Texas ", "", "Ohio"],
      agreeToTerms: undefined,
    });
    expect(result.serviceAreas).toEqual(["Texas", "Ohio"]);
  });
});

describe("payouts", () => {
  it("the affiliate's share is the payout net of the platform fee, in cents", () => {
    expect(splitPayout("450.00", 10)).toEqual({
      grossCents: 45000,
      feeCents: 4500,
      netCents: 40500,
    });
    // 10% of $333.35 is 3333.5 cents: rounded half up, the parts still add up
    expect(splitPayout("333.35", 10)).toEqual({
      grossCents: 33335,
      feeCents: 3334,
      netCents: 30001,
    });
    expect(splitPayout("100.00", 12.5)).toEqual({
      grossCents: 10000,
      feeCents: 1250,
      netCents: 8750,
    });
    expect(splitPayout("100.00", 0).netCents).toBe(10000);
  });

  it("quotes grow with distance, whole dollars, export above shipping", () => {
    const near = quotePayoutCents("shipping", 240);
    const far = quotePayoutCents("shipping", 1280);
    expect(near % 100).toBe(0);
    expect(far).toBeGreaterThan(near);
    expect(quotePayoutCents("export", 240)).toBeGreaterThan(near);
  });

  it("progress by status is 0, 25, 75, 100", () => {
    expect(PROGRESS).toEqual({ open: 0, claimed: 25, in_progress: 75, completed: 100 });
  });
});
