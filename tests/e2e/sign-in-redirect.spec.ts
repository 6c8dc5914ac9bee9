// On a protected screen a signed-out user gets a toast and goes to /api/login after
// 500 ms. With JavaScript that is what the page does; without it the server redirects at once.
import { expect, test, type Page } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ownClientAddress, ready, submitIssuerForm } from "./helpers";

const onIssuer = (url: URL) => url.hostname === "127.0.0.1";
const unique = () => `${test.info().project.name}-${tag()}`;

/** The toast and the 401 page, while the 500 ms run. */
async function expectSignInNotice(page: Page) {
  const toast = page.getByTestId("toast");
  await expect(toast.getByRole("alert")).toContainText("Unauthorized");
  await expect(toast).toContainText("You are logged out. Logging in again...");
  await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
}

test("a visitor following a link to a protected screen is told, then sent to sign in", async ({
  page,
}) => {
  if (!jsEnabled()) {
    // No scripts: the server's redirect, straight to the sign-in form.
    await page.goto("/");
    const redirected = page.waitForResponse((r) => new URL(r.url()).pathname === "/auctions");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Auctions" })
      .click();
    expect((await redirected).status()).toBe(302);
    await page.waitForURL(onIssuer);
    await expect(page.getByLabel("E-mail")).toBeVisible();
    return;
  }

  await page.clock.install();
  await page.goto("/");
  await ready(page);
  // Time stands still from here: the 500 ms pass only when the test says so.
  await page.clock.pauseAt(Date.now() + 60_000);
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Auctions" })
    .click();
  await expectSignInNotice(page);
  await expect(page.getByRole("link", { name: "Sign In" }).last()).toHaveAttribute(
    "href",
    "/api/login?returnTo=%2Fauctions",
  );
  await page.clock.runFor(499);
  expect(new URL(page.url()).hostname).toBe("localhost");
  await expect(page.getByRole("heading", { name: "Authentication Required" })).toBeVisible();
  await page.clock.runFor(1);
  await page.waitForURL(onIssuer);
  await expect(page.getByLabel("E-mail")).toBeVisible();
});

test("a session that ends mid-visit: the bid is refused, sign in, and back to the lot", async ({
  page,
  context,
}) => {
  // Two page loads, the bid dialog, the issuer and back: more than 30 s on a loaded machine.
  test.slow();
  await ownClientAddress(page);
  const email = `e2e-expired-${unique()}@bidyard.test`;
  const userId = await signInAs(context, email, {
    first_name: "Exa",
    verified: true,
    deposit: "5000.00",
  });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  const lot = await createLot({ model: `Camry ${tag()}` });
  if (jsEnabled()) await page.clock.install();
  await page.goto(`/auctions?search=${lot.vin}`);
  await ready(page);
  await page.getByRole("link", { name: "Place Bid", exact: true }).click();
  const form = jsEnabled() ? page.getByRole("dialog") : page.locator("#bid");
  await form.getByLabel("Bid amount (USD)").fill("300");

  // Signed out elsewhere (or expired) before the bid is sent.
  await query("DELETE FROM sessions WHERE user_id = $1", [userId]);
  if (jsEnabled()) {
    // Time stands still from here, so the notice is checked within the 500 ms however slow the
    // machine is; the redirect comes only when the test lets the 500 ms pass.
    await page.clock.pauseAt(Date.now() + 60_000);
    const refused = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.status() === 401,
    );
    await form.getByRole("button", { name: "Place Bid" }).click();
    expect((await refused).status()).toBe(401);
    await expectSignInNotice(page);
    await page.clock.runFor(499);
    expect(new URL(page.url()).hostname).toBe("localhost");
    await page.clock.runFor(1);
    await page.clock.resume();
  } else {
    await form.getByRole("button", { name: "Place Bid" }).click();
  }
  await page.waitForURL(onIssuer);
  expect(await query("SELECT id FROM bids WHERE lot_id = $1", [lot.id])).toEqual([]);

  await submitIssuerForm(page, email);
  await expect(page).toHaveURL(new RegExp(`/auctions/${lot.id}$`));
  await expect(page.getByRole("heading", { name: /Camry/ }).first()).toBeVisible();
});
