// One function per status (docs/decisions/2704): identity, bidding eligibility and provider
// approval each answer once, with one label and one review-time text, for every page.
import { describe, expect, it } from "vitest";
import { biddingEligibility } from "~/services/auctions/eligibility";
import { claimBlocker, providerStatus } from "~/services/affiliates/status";
import { identityStatus, REVIEW_TIME } from "~/services/kyc/status";

describe("identity status", () => {
  it("says Not started before any upload, never Pending", () => {
    expect(identityStatus(false, null)).toEqual({
      state: "none",
      label: "Not started",
      detail: "Upload a government-issued ID to verify your identity.",
      rejectionReason: null,
    });
  });

  it("under review with the one review time, rejected with the reason, verified", () => {
    expect(identityStatus(false, { status: "pending", rejectionReason: null })).toMatchObject({
      state: "pending",
      label: "Under review",
      detail: "Your document is being reviewed, usually within 24 hours.",
    });
    expect(
      identityStatus(false, { status: "rejected", rejectionReason: "The photo is blurred." }),
    ).toMatchObject({
      state: "rejected",
      label: "Rejected",
      rejectionReason: "The photo is blurred.",
    });
    // the flag decides, whatever the newest document says
    expect(identityStatus(true, { status: "pending", rejectionReason: null }).label).toBe(
      "Verified",
    );
    expect(REVIEW_TIME).toBe("usually within 24 hours");
  });
});

describe("bidding eligibility", () => {
  const none = identityStatus(false, null);
  const inReview = identityStatus(false, { status: "pending", rejectionReason: null });
  const verified = identityStatus(true, null);

  it("a deposit alone does not enable bidding while the ID is not verified", () => {
    const answer = biddingEligibility(inReview, 100_000);
    expect(answer.canBid).toBe(false);
    expect(answer.label).toBe("ID Under Review");
    expect(answer.reasons).toEqual([
      {
        need: "verification",
        title: "Verification Required",
        description:
          "Your ID is under review (usually within 24 hours). You can bid once it is approved.",
        link: { to: "/kyc-verification", label: "See your verification" },
      },
    ]);
  });

  it("names every missing step in order, with the spec's texts before any upload", () => {
    const answer = biddingEligibility(none, 39_999);
    // the badge says how much is missing (docs/decisions/3306)
    expect(answer.label).toBe("Minimum Deposit Required: add $0.01");
    expect(biddingEligibility(none, 0).label).toBe("Minimum Deposit Required: add $400.00");
    expect(biddingEligibility(none, 40_000).label).toBe("Verification Required");
    expect(answer.reasons.map((r) => `${r.title}: ${r.description}`)).toEqual([
      "Verification Required: Please verify your identity before bidding.",
      "Deposit Required: Minimum $400 deposit required before bidding.",
    ]);
    expect(biddingEligibility(verified, 15_050).label).toBe(
      "Minimum Deposit Required: add $249.50",
    );
    expect(biddingEligibility(verified, 40_000)).toEqual({
      canBid: true,
      label: "Bidding Enabled",
      reasons: [],
    });
  });
});

describe("provider status", () => {
  it("only an approved provider can claim; everyone else is told why", () => {
    expect(providerStatus({ status: "approved" })).toMatchObject({ canClaim: true, reason: null });
    expect(providerStatus({ status: "pending" })).toMatchObject({
      label: "Pending Approval",
      canClaim: false,
      reason:
        "Your provider application is under review (usually within 24 hours). You can claim jobs once it is approved.",
    });
    expect(providerStatus(null)).toMatchObject({ state: "none", canClaim: false });
    expect(providerStatus({ status: "rejected" })).toMatchObject({ canClaim: false });
  });

  it("no one claims their own transport request, approved or not", () => {
    const approved = providerStatus({ status: "approved" });
    expect(claimBlocker(approved, { requestedByMe: false })).toBeNull();
    expect(claimBlocker(approved, { requestedByMe: true })).toBe(
      "This is your own transport request: an approved provider will claim it from the board.",
    );
    expect(claimBlocker(providerStatus(null), { requestedByMe: true })).toMatch(/your own/);
  });
});
