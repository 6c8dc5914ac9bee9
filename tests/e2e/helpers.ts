import { test, type Page } from "@playwright/test";

export function jsEnabled() {
  return test.info().project.use.javaScriptEnabled !== false;
}

/** With JavaScript on, wait until Remix has hydrated before clicking; without, nothing to wait for. */
export async function ready(page: Page) {
  if (!jsEnabled()) return;
  // The router is initialized before React has hydrated (a page with no client loaders starts
  // so): a click then can still reach a plain link. The root marks the document once hydrated.
  await page.waitForFunction(
    () =>
      (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter
        ?.state.initialized === true && document.documentElement.dataset.hydrated === "true",
  );
}

/** A fresh client address for the rate limits (the app keys them on Fly-Client-IP). */
export async function ownClientAddress(page: Page) {
  const n = () => Math.floor(Math.random() * 250) + 1;
  await page.context().setExtraHTTPHeaders({ "fly-client-ip": `10.${n()}.${n()}.${n()}` });
}

/**
 * Signs in through the real flow: /api/login → the local issuer's form → /api/callback →
 * `returnTo`. Unless `onboarding` is asked for, the onboarding dialog is marked as done first so
 * it does not cover the page (JS only).
 */
export async function signInThroughIssuer(
  page: Page,
  email: string,
  returnTo = "/",
  options: {
    firstName?: string;
    lastName?: string;
    accountType?: "buyer" | "affiliate";
    onboarding?: boolean;
  } = {},
) {
  await ownClientAddress(page);
  if (!options.onboarding) {
    await page.addInitScript(() => {
      if (location.hostname === "localhost") localStorage.setItem("onboarding_completed", "true");
    });
  }
  const params = new URLSearchParams({ returnTo });
  if (options.accountType) params.set("accountType", options.accountType);
  await page.goto(`/api/login?${params}`);
  await submitIssuerForm(page, email, options);
}

/** Fills and submits the local issuer's sign-in form (the page must be showing it). */
export async function submitIssuerForm(
  page: Page,
  email: string,
  names: { firstName?: string; lastName?: string } = {},
) {
  await page.waitForURL((url) => url.hostname === "127.0.0.1");
  await page.getByLabel("E-mail").fill(email);
  if (names.firstName) await page.getByLabel("First name (optional)").fill(names.firstName);
  if (names.lastName) await page.getByLabel("Last name (optional)").fill(names.lastName);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.hostname === "localhost" && url.pathname !== "/api/callback");
  await ready(page);
}

/** How long after hydration the onboarding dialog opens (ONBOARDING_DELAY_MS in the app). */
const ONBOARDING_DELAY_MS = 1_000;

/**
 * Runs the page's clock past the onboarding dialog's delay, so a dialog that was going to open has
 * been told to: no waiting it out. The clock must have been installed (`page.clock.install()`)
 * before the page loaded; the page is hydrated first, as the dialog's timer starts only then.
 */
export async function pastOnboardingDelay(page: Page) {
  await ready(page);
  await page.clock.runFor(ONBOARDING_DELAY_MS + 100);
}
