import { REVIEW_TIME } from "~/services/kyc/status";
import { useLocation } from "@remix-run/react";
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
    body: `Upload a government-issued ID (driver's license, passport or state ID) on the Identity Verification page. Your ID documents are reviewed by an admin, ${REVIEW_TIME}.`,
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

/** Where finishing or skipping is recorded for the server (a flag cookie). */
const DONE_ACTION = "/api/onboarding";

/**
 * Opens 1 s after a sign-in unless the onboarding is done: onboarding_completed stored locally,
 * or the server's flag cookie (`completed`). The server tells it a sign-in just happened (an
 * HttpOnly marker cookie the root loader reads once). Get Started and Skip both record it done,
 * in both places.
 */
export function OnboardingDialog({
  signedIn,
  justSignedIn,
  completed,
}: {
  signedIn: boolean;
  justSignedIn: boolean;
  completed: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [step, setStep] = useState(0);

  useEffect(() => {
    if (!signedIn || !justSignedIn || completed) return;
    if (localStorage.getItem(ONBOARDING_COMPLETED) === "true") return;
    const timer = setTimeout(() => {
      setStep(0);
      setOpen(true);
    }, ONBOARDING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [signedIn, justSignedIn, completed]);

  const last = step === STEPS.length - 1;
  const finish = () => {
    localStorage.setItem(ONBOARDING_COMPLETED, "true");
    setOpen(false);
    // Best effort: the local flag already keeps the dialog closed in this browser.
    fetch(DONE_ACTION, {
      method: "POST",
      credentials: "include",
      headers: { Accept: "application/json" },
    }).catch(() => undefined);
  };

  return (
    <LazyModal open={open} onClose={() => setOpen(false)}>
      {(Title) => (
        <>
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm font-semibold text-slate-500">
              Step {step + 1} of {STEPS.length}
            </p>
            <button
              type="button"
              onClick={finish}
              className="rounded-md px-2 py-1 text-sm font-semibold text-slate-600 underline hover:bg-slate-100"
            >
              Skip
            </button>
          </div>
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

/**
 * The onboarding without JavaScript: after a sign-in, a short panel at the top of the page (in
 * the flow, covering nothing) with the same steps and a form that records it done, the same post
 * for Get Started and Skip. Inside <noscript>, so a browser running scripts gets the dialog only.
 */
export function OnboardingWithoutScripts({
  justSignedIn,
  completed,
}: {
  justSignedIn: boolean;
  completed: boolean;
}) {
  const location = useLocation();
  if (!justSignedIn || completed) return null;
  return (
    <noscript>
      <section
        aria-labelledby="onboarding-tour-title"
        className="mx-auto mt-4 w-full max-w-7xl px-3 sm:px-6"
      >
        <div className="rounded-xl border border-brand-100 bg-brand-50 p-4">
          <h2 id="onboarding-tour-title" className="text-lg font-bold">
            New to BidYard? Five steps to your first bid
          </h2>
          <details className="mt-2">
            <summary className="cursor-pointer text-sm font-semibold text-brand-700">
              Show the steps
            </summary>
            <ol className="mt-2 list-decimal space-y-2 pl-5 text-sm text-slate-700">
              {STEPS.map((item) => (
                <li key={item.title}>
                  <strong>{item.title}.</strong> {item.body}
                </li>
              ))}
            </ol>
          </details>
          <form method="post" action={DONE_ACTION} className="mt-3 flex gap-2">
            <input
              type="hidden"
              name="redirectTo"
              value={`${location.pathname}${location.search}`}
            />
            <button
              type="submit"
              className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            >
              Get Started
            </button>
            <button
              type="submit"
              className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 hover:bg-slate-100"
            >
              Skip
            </button>
          </form>
        </div>
      </section>
    </noscript>
  );
}
