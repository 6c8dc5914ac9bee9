// What the dashboard tells each kind of person to do next (docs/decisions/3306).
import { describe, expect, it } from "vitest";
import { nextSteps, showsBuyerSteps } from "~/services/accounts/next-steps";
import { biddingEligibility } from "~/services/auctions/eligibility";
import { providerStatus } from "~/services/affiliates/status";
import { identityStatus } from "~/services/kyc/status";

const none = identityStatus(false, null);
const verified = identityStatus(true, null);
const noInvoices = { count: 0, firstId: null, nextDueAt: null };

describe("next steps", () => {
  it("a new buyer: verify, then deposit the amount missing", () => {
    const steps = nextSteps({
      accountType: "buyer",
      eligibility: biddingEligibility(none, 15_000),
      provider: providerStatus(null),
      invoices: noInvoices,
      depositCents: 15_000,
    });
    expect(steps.map((s) => s.key)).toEqual(["verification", "deposit"]);
    expect(steps[1].text).toBe("Minimum $400 deposit required before bidding. Add $250.00 to bid.");
  });

  it("a ready buyer has nothing to do", () => {
    expect(
      nextSteps({
        accountType: "buyer",
        eligibility: biddingEligibility(verified, 100_000),
        provider: providerStatus(null),
        invoices: noInvoices,
        depositCents: 100_000,
      }),
    ).toEqual([]);
  });

  it("a provider sees the application first, in each state", () => {
    const step = (status: string | null) =>
      nextSteps({
        accountType: "affiliate",
        eligibility: biddingEligibility(verified, 100_000),
        provider: providerStatus(status ? { status } : null),
        invoices: noInvoices,
        depositCents: 100_000,
      })[0];
    expect(step(null)).toMatchObject({
      title: "Apply as a service provider",
      link: { to: "/affiliate-registration" },
    });
    expect(step("pending").title).toBe("Provider application under review");
    expect(step("approved")).toMatchObject({ link: { to: "/service-orders" } });
    expect(step("rejected").title).toBe("Provider application not approved");
  });

  it("open invoices come first: one links to it, several to the won list", () => {
    const base = {
      accountType: "buyer" as const,
      eligibility: biddingEligibility(none, 0),
      provider: providerStatus(null),
      depositCents: 0,
    };
    const one = nextSteps({
      ...base,
      invoices: { count: 1, firstId: "42", nextDueAt: "2026-12-01T23:00:00.000Z" },
    });
    expect(one[0]).toMatchObject({
      key: "invoices",
      title: "Pay your invoice",
      link: { to: "/purchases/42" },
      dueAt: "2026-12-01T23:00:00.000Z",
    });
    const two = nextSteps({
      ...base,
      invoices: { count: 2, firstId: "42", nextDueAt: null },
    });
    expect(two[0]).toMatchObject({
      title: "Pay your 2 invoices",
      link: { to: "/my-auctions#won" },
    });
    expect(two.map((s) => s.key)).toEqual(["invoices", "verification", "deposit"]);
  });

  // docs/decisions/3533
  it("buyer steps: every buyer, and a provider once it starts buying", () => {
    const provider = { accountType: "affiliate" as const, buyerActivity: false };
    expect(showsBuyerSteps({ ...provider, verified: false, depositCents: 0 })).toBe(false);
    // an ID sent or a bid placed (the dashboard's facts), an approved ID, or a deposit
    expect(
      showsBuyerSteps({ ...provider, buyerActivity: true, verified: false, depositCents: 0 }),
    ).toBe(true);
    expect(showsBuyerSteps({ ...provider, verified: true, depositCents: 0 })).toBe(true);
    expect(showsBuyerSteps({ ...provider, verified: false, depositCents: 1 })).toBe(true);
    expect(
      showsBuyerSteps({
        accountType: "buyer",
        buyerActivity: false,
        verified: false,
        depositCents: 0,
      }),
    ).toBe(true);
  });

  it("a provider who does not buy: its application and jobs, no verification or deposit", () => {
    const steps = nextSteps({
      accountType: "affiliate",
      eligibility: biddingEligibility(none, 0),
      provider: providerStatus({ status: "approved" }),
      invoices: noInvoices,
      depositCents: 0,
      buyerSteps: false,
      jobs: { active: 2, completed: 3, earnedCents: 123_450 },
    });
    expect(steps.map((s) => [s.key, s.title])).toEqual([
      ["provider", "Provider application approved"],
      ["jobs", "2 claimed jobs to deliver"],
      ["earnings", "Earned $1,234.50"],
    ]);
    expect(steps[2].text).toBe("From 3 delivered jobs, after the platform fee.");
  });
});
