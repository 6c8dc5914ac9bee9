import { useEffect, useState } from "react";
import { ONBOARDING_COMPLETED } from "~/utils/shell";
import { LazyModal } from "./lazy-modal";

export const ONBOARDING_DELAY_MS = 1000;

const STEPS = [
  {
    title: "Welcome",
    body: "Welcome to BidYard, the online auto auction marketplace open to all buyers. No dealer licence needed: bid on used and salvage vehicles from Copart and IAAI, or buy from sellers in our community marketplace.",
  },
  {
    title: "Getting Started: Verification",
    body: "Upload a government-issued ID (driver's license, passport or state ID) on the Identity Verification page. Your ID documents are reviewed by an admin, usually within 24 hours.",
  },
  {
    title: "Making Your First Deposit",
    body: "Place a refundable deposit of at least $400. Your deposit sets your bidding power, is held and applied to winning bids, and unused funds are fully refundable.",
  },
  {
    title: "Bidding on Auctions",
    body: "Bid live, or set a proxy maximum and we bid for you in $50 steps up to it. All bids are binding. You'll be told when you win.",
  },
  {
    title: "Shipping & Export Services",
    body: "Once you win, approved service providers can ship your vehicle across the US or export it to ports worldwide.",
  },
];

/**
 * Opens 1 s after a sign-in unless onboarding_completed is stored (needs JavaScript). The server
 * tells it a sign-in just happened (an HttpOnly marker cookie the root loader reads once).
 */
export function OnboardingDialog({
  signedIn,
  justSignedIn,
}: {
  signedIn: boolean;
  justSignedIn: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState(0);

  useEffect(() => {
    if (!signedIn || !justSignedIn) return;
    if (localStorage.getItem(ONBOARDING_COMPLETED) === "true") return;
    const timer = setTimeout(() => {
      setStep(0);
      setOpen(true);
    }, ONBOARDING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [signedIn, justSignedIn]);

  const last = step === STEPS.length - 1;
  const finish = () => {
    localStorage.setItem(ONBOARDING_COMPLETED, "true");
    setOpen(false);
  };

  return (
    <LazyModal open={open} onClose={() => setOpen(false)}>
      {(Title) => (
        <>
          <p className="text-sm font-semibold text-slate-500">
            Step {step + 1} of {STEPS.length}
          </p>
          <div
            role="progressbar"
            aria-label="Onboarding progress"
            aria-valuemin={1}
            aria-valuemax={STEPS.length}
            aria-valuenow={step + 1}
            className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full bg-brand-700 transition-all"
              style={{ width: `${((step + 1) / STEPS.length) * 100}%` }}
            />
          </div>
          <Title as="h2" id="onboarding-title" className="mt-4 text-xl font-bold">
            {STEPS[step].title}
          </Title>
          <p className="mt-2 text-slate-700">{STEPS[step].body}</p>
          <div className="mt-6 flex justify-between gap-3">
            <button
              type="button"
              onClick={() => setStep((s) => Math.max(0, s - 1))}
              disabled={step === 0}
              className="rounded-md border border-slate-300 px-4 py-2 font-semibold disabled:opacity-50"
            >
              Previous
            </button>
            <button
              type="button"
              onClick={() => (last ? finish() : setStep((s) => s + 1))}
              className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
            >
              {last ? "Get Started" : "Next"}
            </button>
          </div>
        </>
      )}
    </LazyModal>
  );
}
