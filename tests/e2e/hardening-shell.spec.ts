// The shell as a newcomer meets it, with and without JavaScript, on a desktop and at 360 px
// (issue 20, "What a user meets").
import { expect, test, type Page } from "@playwright/test";
import { query, signInAs } from "./db";
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

const PHONE = { width: 360, height: 740 };

async function headerBox(page: Page) {
  return (await page.getByRole("banner").boundingBox())!;
}

test.describe("a toast without JavaScript", () => {
  test.skip(() => jsEnabled(), "the scripted toaster has its own tests");

  test("× closes it", async ({ page }) => {
    await signInThroughIssuer(page, unique("toast-close"));
    const toast = page.getByTestId("toast");
    await expect(toast).toContainText("Welcome");
    await toast.getByText("×").click();
    await expect(toast).toBeHidden();
  });

  test("the keyboard closes it too", async ({ page }) => {
    await signInThroughIssuer(page, unique("toast-keys"));
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    await toast.getByLabel("Dismiss notification").focus();
    await page.keyboard.press("Space");
    await expect(toast).toBeHidden();
  });

  test("it goes by itself after 5 s and, at 360 px, never covers the header", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInThroughIssuer(page, unique("toast-expire"));
    const toast = page.getByTestId("toast");
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const header = await headerBox(page);
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(box.height).toBeLessThanOrEqual(96);
    // a CSS animation hides it, 5 s after it is shown (the same 5 s as the scripted timer)
    expect(await toast.evaluate((li) => getComputedStyle(li).animationDelay)).toBe("5s");
    await expect(toast).toBeHidden({ timeout: 9_000 });
  });
});

test.describe("registration", () => {
  async function fillRegistration(page: Page, email: string) {
    await page.getByLabel("First name").fill("Rita");
    await page.getByLabel("Last name").fill("Registered");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Phone").fill("555-0100");
    await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
    await page.getByRole("button", { name: "Create Account" }).click();
  }

  test("sent before its checks have loaded, the form is checked once they have", async ({
    page,
  }) => {
    test.skip(!jsEnabled(), "without JavaScript the browser's own checks hold the form");
    await page.goto("/");
    await ready(page);
    // every script asked for from here on (the dialog, the form's schema) arrives late
    await page.route("**/build/**/*.js", async (route) => {
      // a fixed wait on purpose: a slow network, the scripts late while the user goes on
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.getByRole("banner").getByRole("link", { name: "Register" }).click();
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByText("Enter your first name.")).toBeVisible();
    await expect(page.getByLabel("First name")).toBeFocused();
    expect(new URL(page.url()).pathname).toBe("/");
  });

  test("an empty form is refused with a message per field; the names reach the new account", async ({
    page,
  }) => {
    test.slow();
    await ownClientAddress(page);
    const email = unique("registered");
    await page.goto("/?register=1");
    await ready(page);
    await page.getByRole("button", { name: "Create Account" }).click();
    if (jsEnabled()) {
      await expect(page.getByText("Enter your first name.")).toBeVisible();
      await expect(page.getByLabel("First name")).toBeFocused();
      await expect(page.getByLabel("Phone")).toHaveAttribute("aria-invalid", "true");
    } else {
      // The browser's own checks hold the form back: still here, every field invalid.
      await expect(page.locator("#register :invalid").first()).toBeAttached();
      expect(await page.locator("#register input:invalid").count()).toBeGreaterThanOrEqual(5);
      expect(new URL(page.url()).hostname).toBe("localhost");
    }
    // What an empty form sends when nothing in the browser checks it: the server refuses it.
    const refused = await page.goto("/api/login?from=register&accountType=buyer&login_hint=");
    expect(refused?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    for (const message of [
      "Enter your first name.",
      "Enter your last name.",
      "Enter your e-mail address.",
      "Agree to the Terms of Service and Privacy Policy.",
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await expect(page.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
    await ready(page);

    await fillRegistration(page, email);
    await page.waitForURL((url) => url.hostname === "127.0.0.1");
    expect(page.url()).not.toContain("secret-pass");
    expect(page.url()).not.toContain("555-0100");
    await expect(page.getByLabel("E-mail")).toHaveValue(email);
    // No names given at the issuer: the ones typed at registration are kept.
    await submitIssuerForm(page, email);
    await expect(page.getByRole("group", { name: "Account" }).getByTestId("user-label")).toHaveText(
      "Rita",
    );
    // ...and the phone number typed is kept on the account (docs/decisions/3304)
    const rows = await query<{ first_name: string; last_name: string; phone: string }>(
      "select first_name, last_name, phone from users where email = $1",
      [email],
    );
    expect(rows[0]).toEqual({ first_name: "Rita", last_name: "Registered", phone: "555-0100" });
  });
});

test.describe("the header at 360 px", () => {
  const menu = (page: Page) => page.getByRole("checkbox", { name: "Menu" });
  const account = (page: Page) => page.getByRole("group", { name: "Account" });

  test("signed in, it is one row, and its Menu reaches every link and Logout", async ({
    page,
    context,
  }) => {
    test.slow();
    await signInAs(context, unique("narrow-menu"), { first_name: "Nat", role: "admin" });
    await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
    await page.setViewportSize(PHONE);
    await page.goto("/");
    await ready(page);
    const header = await headerBox(page);
    expect(header.height).toBeLessThanOrEqual(64);
    for (const part of [
      page.getByRole("banner").getByRole("link", { name: "BidYard" }),
      page.getByRole("banner").getByRole("link", { name: /^Notifications/ }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height);
    }
    await expect(account(page)).toBeHidden();

    await menu(page).check();
    for (const name of ["Post Vehicle", "Dashboard", "Admin"]) {
      await expect(account(page).getByRole("link", { name, exact: true })).toBeInViewport();
    }
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Auctions" }),
    ).toBeInViewport();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    if (jsEnabled()) {
      // Escape closes it and gives focus back to the toggle; a navigation closes it too.
      await menu(page).focus();
      await page.keyboard.press("Escape");
      await expect(account(page)).toBeHidden();
      await expect(menu(page)).toBeFocused();
      await page.keyboard.press("Space");
      await expect(account(page)).toBeVisible();
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("link", { name: "Community Vehicles" })
        .click();
      await expect(page).toHaveURL(/\/community-vehicles/);
      await expect(account(page)).toBeHidden();
      await menu(page).check();
    }

    await account(page).getByRole("button", { name: "Logout" }).click();
    await expect(
      page.getByRole("group", { name: "Account" }).getByRole("link", { name: "Sign In" }),
    ).toBeVisible();
  });

  test("signed out, Sign In and Register are on the one row", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/");
    await ready(page);
    const header = await headerBox(page);
    expect(header.height).toBeLessThanOrEqual(64);
    for (const name of ["Sign In", "Register"]) {
      await expect(account(page).getByRole("link", { name })).toBeInViewport();
    }
  });
});

test.describe("onboarding", () => {
  test("Skip closes it and records it done, as finishing does", async ({ page, context }) => {
    test.slow();
    const email = unique("onboarding-skip");
    await signInThroughIssuer(page, email, "/", { onboarding: true });
    if (jsEnabled()) {
      await expect(page.getByText("Step 1 of 5")).toBeVisible();
      await page.getByRole("dialog").getByRole("button", { name: "Skip" }).click();
      await expect(page.getByText("Step 1 of 5")).toBeHidden();
      expect(await page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBe("true");
      await expect
        .poll(async () => (await context.cookies()).find((c) => c.name === "onboarding_completed"))
        .toMatchObject({ value: "true", httpOnly: true });
    } else {
      const tour = page.getByRole("region", { name: /Five steps to your first bid/ });
      await expect(tour).toBeVisible();
      // In the page's flow, under the header: it covers nothing.
      const box = (await tour.boundingBox())!;
      const header = await headerBox(page);
      expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
      await tour.getByText("Show the steps").click();
      await expect(tour.getByText(/reviewed by an admin/)).toBeVisible();
      await tour.getByRole("button", { name: "Skip" }).click();
      await expect(tour).toHaveCount(0);
      await expect(page).toHaveURL(/localhost:\d+\/$/);
      expect(
        (await context.cookies()).find((c) => c.name === "onboarding_completed"),
      ).toMatchObject({ value: "true", httpOnly: true });
    }

    // The next sign-in in this browser does not offer it again (the server knows it is done).
    await page
      .getByRole("group", { name: "Account" })
      .getByRole("button", { name: "Logout" })
      .click();
    await expect(
      page.getByRole("group", { name: "Account" }).getByRole("link", { name: "Sign In" }),
    ).toBeVisible();
    if (jsEnabled()) await page.clock.install();
    await page.goto("/api/login");
    await submitIssuerForm(page, email);
    await expect(
      page.getByRole("group", { name: "Account" }).getByTestId("user-label"),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: /Five steps to your first bid/ })).toHaveCount(0);
    if (jsEnabled()) {
      // Logout cleared localStorage: only the server's flag keeps the dialog closed now.
      expect(await page.evaluate(() => localStorage.getItem("onboarding_completed"))).toBeNull();
      await pastOnboardingDelay(page);
      await expect(page.getByText("Step 1 of 5")).toHaveCount(0);
    }
  });
});
