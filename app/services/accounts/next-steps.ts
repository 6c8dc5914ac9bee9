// What the dashboard tells each kind of person to do next (docs/decisions/3306). Plain
// TypeScript: built from the same eligibility and provider status every other page asks.
import { missingDepositCents, type BiddingEligibility } from "~/services/auctions/eligibility";
import { formatUsd } from "~/utils/money";
import type { ProviderStatus } from "~/services/affiliates/status";

export type OpenInvoices = { count: number; firstId: string | null; nextDueAt: string | null };

/** A provider's claimed jobs still to deliver, jobs delivered and what they earned (net). */
export type ProviderJobs = { active: number; completed: number; earnedCents: number };

export type NextStep = {
  key: "verification" | "deposit" | "provider" | "invoices" | "jobs" | "earnings";
  title: string;
  text: string;
  link: { to: string; label: string };
  /** an instant the text refers to (the next invoice's due time), shown in the viewer's zone */
  dueAt?: string | null;
};

/**
 * Whether the dashboard shows this person the buyer's to-dos (docs/decisions/3533): everyone who
 * registered as a buyer, and a provider who has started buying (a deposit, a bid, a purchase, an
 * ID sent or approved). A provider who has not is shown their own next steps only.
 */
export function showsBuyerSteps(input: {
  accountType: "buyer" | "affiliate";
  buyerActivity: boolean;
  verified: boolean;
  depositCents: number;
}) {
  return (
    input.accountType !== "affiliate" ||
    input.buyerActivity ||
    input.verified ||
    input.depositCents > 0
  );
}

export function nextSteps(input: {
  accountType: "buyer" | "affiliate";
  eligibility: BiddingEligibility;
  provider: ProviderStatus;
  invoices: OpenInvoices;
  depositCents: number;
  /** false for a provider who does not buy: no verification or deposit steps (record 3533) */
  buyerSteps?: boolean;
  jobs?: ProviderJobs;
}): NextStep[] {
  const steps: NextStep[] = [];
  const { invoices, provider } = input;
  if (invoices.count > 0) {
    steps.push({
      key: "invoices",
      title: invoices.count === 1 ? "Pay your invoice" : `Pay your ${invoices.count} invoices`,
      text:
        invoices.count === 1
          ? "You won a lot and its invoice is open."
          : `You won ${invoices.count} lots whose invoices are open.`,
      link:
        invoices.count === 1 && invoices.firstId
          ? { to: `/purchases/${invoices.firstId}`, label: "Open the invoice" }
          : { to: "/my-auctions#won", label: "See your won vehicles" },
      dueAt: invoices.nextDueAt,
    });
  }
  // A provider's own path comes before the buyer's: it is why they registered.
  if (input.accountType === "affiliate" || provider.state !== "none") {
    steps.push(providerStep(provider));
    if (provider.state === "approved" && input.jobs) steps.push(...jobSteps(input.jobs));
  }
  if (input.buyerSteps === false) return steps;
  for (const reason of input.eligibility.reasons) {
    steps.push({
      key: reason.need,
      title: reason.title,
      text:
        reason.need === "deposit"
          ? `${reason.description} Add ${formatUsd(missingDepositCents(input.depositCents), "cents")} to bid.`
          : reason.description,
      link: reason.link,
    });
  }
  return steps;
}

/** An approved provider's own work: claimed jobs to deliver, then what delivered jobs earned. */
function jobSteps(jobs: ProviderJobs): NextStep[] {
  const steps: NextStep[] = [];
  if (jobs.active > 0) {
    steps.push({
      key: "jobs",
      title:
        jobs.active === 1 ? "1 claimed job to deliver" : `${jobs.active} claimed jobs to deliver`,
      text: "Each job has the yard's address, hours and phone, the delivery address and the gate pass.",
      link: { to: "/service-orders?tab=mine", label: "See your jobs" },
    });
  }
  if (jobs.completed > 0) {
    steps.push({
      key: "earnings",
      title: `Earned ${formatUsd(jobs.earnedCents, "cents")}`,
      text:
        jobs.completed === 1
          ? "From 1 delivered job, after the platform fee."
          : `From ${jobs.completed} delivered jobs, after the platform fee.`,
      link: { to: "/service-orders/earnings", label: "See your earnings" },
    });
  }
  return steps;
}

function providerStep(provider: ProviderStatus): NextStep {
  switch (provider.state) {
    case "approved":
      return {
        key: "provider",
        title: "Provider application approved",
        text: "You can claim shipping and export jobs from the board.",
        link: { to: "/service-orders", label: "Browse service orders" },
      };
    case "pending":
      return {
        key: "provider",
        title: "Provider application under review",
        text: provider.reason ?? "",
        link: { to: "/affiliate-registration", label: "See your application" },
      };
    case "rejected":
      return {
        key: "provider",
        title: "Provider application not approved",
        text: provider.reason ?? "",
        link: { to: "/affiliate-registration", label: "See why and apply again" },
      };
    default:
      return {
        key: "provider",
        title: "Apply as a service provider",
        text: "Send your company details and licence; an admin approves providers before they claim jobs.",
        link: { to: "/affiliate-registration", label: "Apply to join" },
      };
  }
}
