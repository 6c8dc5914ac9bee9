import { expect, test } from "@playwright/test";
import { query } from "./db";
import {
  jsEnabled,
  ownClientAddress,
  pastOnboardingDelay,
  ready,
  signInThroughIssuer,
  submitIssuerForm,
} from "./helpers";

const unique = (name: string) =>
  `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

const account = (page: import("@playwright/test").Page) =>
  page.getByRole("group", { name: "Account" });

test.describe("sign-in round trip through the local issuer", () => {
  test("lands back on returnTo, signed in, with the name in the header", async ({ page }) => {
    const email = unique("round-trip");
    await signInThroughIssuer(page, email, "/?from=returnTo", { firstName: "Robin" });
    await expect(page).toHaveURL(/\/\?from=returnTo$/);
    await expect(account(page).getByTestId("user-label")).toHaveText("Robin");
    await expect(page.getByRole("heading", { name: "Welcome to BidYard, Robin!" })).toBeVisible();
    await expect(page.getByText("Welcome to BidYard!")).toBeVisible();
    const rows = await query<{ first_name: string }>(
      "select first_name from users where email = $1",
      [email],
    );
    expect(rows[0].first_name).toBe("Robin");
  });

  test("a protected path sends the visitor back to it after signing in", async ({ page }) => {
    await ownClientAddress(page);
    // /deposit's own route arrives with its issue; requireUser's redirect is what matters here.
    await page.goto("/api/login?returnTo=%2Fno-such-page%3Fq%3D1");
    await submitIssuerForm(page, unique("protected"));
    await expect(page).toHaveURL(/\/no-such-page\?q=1$/);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expect(account(page).getByRole("button", { name: "Logout" })).toBeVisible();
  });

  test("the landing page's e-mail box signs in with that e-mail suggested", async ({ page }) => {
    await ownClientAddress(page);
    const email = unique("hint");
    await page.goto("/");
    await ready(page);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.waitForURL((url) => url.hostname === "127.0.0.1");
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.hostname === "localhost" && url.pathname === "/");
    await expect(account(page).getByTestId("user-label")).toHaveText(email);
  });

  test("the demo admin signs in and is an admin", async ({ page }) => {
    await signInThroughIssuer(page, "admin@bidyard.test");
    await expect(account(page).getByTestId("admin-badge")).toHaveText("Admin");
    await expect(account(page).getByRole("link", { name: "Admin" })).toHaveAttribute(
      "href",
      "/admin",
    );
  });

  test("logout ends the session on the server", async ({ page }) => {
    await signInThroughIssuer(page, unique("logout"), "/", { firstName: "Lou" });
    const before = await page.context().cookies();
    const session = before.find((c) => c.name === "__session")!;
    if (jsEnabled()) {
      await page.evaluate(() => {
        localStorage.setItem("some_flag", "1");
        sessionStorage.setItem("some_flag", "1");
      });
    }
    await account(page).getByRole("button", { name: "Logout" }).click();
    await expect(page.getByText("You have been signed out.")).toBeVisible();
    await expect(account(page).getByRole("link", { name: "Sign In" })).toBeVisible();
    if (jsEnabled()) {
      expect(await page.evaluate(() => localStorage.getItem("some_flag"))).toBeNull();
      expect(await page.evaluate(() => sessionStorage.getItem("some_flag"))).toBeNull();
    }
    // The old cookie no longer opens anything: the session is gone on the server.
    const replay = await page.request.get("/api/auth/user", {
      headers: { Cookie: `__session=${session.value}` },
    });
    expect(replay.status()).toBe(401);
  });

  test("Register as a Service Provider: a new account lands on /affiliate-registration", async ({
    page,
  }) => {
    await ownClientAddress(page);
    const email = unique("provider");
    await page.goto("/");
    await ready(page);
    await page.getByRole("banner").getByRole("link", { name: "Register" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await page.getByLabel("Service Provider (Affiliate)").check();
    await page.getByLabel("First name").fill("Pat");
    await page.getByLabel("Last name").fill("Provider");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Phone").fill("555-0100");
    await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
    await page.getByRole("button", { name: "Create Account" }).click();
    await page.waitForURL((url) => url.hostname === "127.0.0.1");
    expect(page.url()).not.toContain("secret-pass");
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/affiliate-registration$/);
    const rows = await query<{ account_type: string }>(
      "select account_type from users where email = $1",
      [email],
    );
    expect(rows[0].account_type).toBe("affiliate");
  });

  test("a forged state or a replayed callback gets a clear 400", async ({ page }) => {
    const callbacks: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/callback") callbacks.push(request.url());
    });
    await signInThroughIssuer(page, unique("replay"));
    expect(callbacks).toHaveLength(1);
    const replay = await page.goto(callbacks[0]);
    expect(replay?.status()).toBe(400);
    await expect(page.getByText(/Please sign in again/)).toBeVisible();

    await page.context().clearCookies();
    // A flow this browser started (its state cookie is set), answered with someone else's state.
    await page.goto("/api/login");
    await page.waitForURL((url) => url.hostname === "127.0.0.1");
    const forged = await page.goto("/api/callback?code=stolen-code&state=forged-state");
    expect(forged?.status()).toBe(400);
    await expect(page.getByText(/could not be verified/)).toBeVisible();
    await expect(account(page).getByRole("link", { name: "Sign In" })).toBeVisible();
  });
});

test.describe("onboarding", () => {
  test("opens after sign-in (with JS), five steps, Get Started remembers it", async ({ page }) => {
    await signInThroughIssuer(page, unique("onboarding"), "/", { onboarding: true });
    if (!jsEnabled()) {
      // Without JavaScript there is no dialog: nothing covers the dashboard.
      await expect(page.getByText("Step 1 of 5")).toHaveCount(0);
      await expect(page.getByRole("heading", { name: /Welcome to BidYard/ })).toBeVisible();
      return;
    }
    const steps = [
      "Welcome",
      "Getting Started: Verification",
      "Making Your First Deposit",
      "Bidding on Auctions",
      "Shipping & Export Services",
    ];
    for (const [index, title] of steps.entries()) {
      await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
      await expect(page.getByText(`Step ${index + 1} of 5`)).toBeVisible();
      if (index === 1) await expect(page.getByText(/reviewed by an admin/)).toBeVisible();
      if (index < 4) await page.getByRole("button", { name: "Next" }).click();
    }
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(page.getByRole("heading", { name: steps[3] })).toBeVisible();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Get Started" }).click();
    await expect(page.getByRole("heading", { name: steps[4] })).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBe("true");
    await page.clock.install();
    await page.reload();
    await pastOnboardingDelay(page);
    await expect(page.getByText("Step 1 of 5")).toBeHidden();
  });
});
