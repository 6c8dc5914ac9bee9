// The registration form is checked the same with and without JavaScript (issue 42, finding 5;
// docs/decisions/3520): the finding's body (no names, a phone of markup, no terms ticked) is
// refused with the form's messages and starts no sign-in; corrected, the same form signs in.
import { expect, test, type Page } from "@playwright/test";
import { query } from "./db";
import { jsEnabled, ownClientAddress, ready, submitIssuerForm } from "./helpers";

const unique = (name: string) =>
  `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

const MESSAGES = [
  "Enter your first name.",
  "Enter your last name.",
  "Enter a phone number: digits, spaces, + ( ) - and . only.",
  "Agree to the Terms of Service and Privacy Policy.",
];

async function loginIntent(page: Page) {
  return (await page.context().cookies()).filter((cookie) => cookie.name === "__login_intent");
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 360, height: 740 },
]) {
  test(`at ${viewport.width} px: the finding's body is refused with its messages, then corrected it signs in`, async ({
    page,
  }) => {
    test.slow();
    await page.setViewportSize(viewport);
    await ownClientAddress(page);
    const email = unique("modes");
    await page.goto("/?register=1");
    await ready(page);
    const form = page.locator("form", {
      has: page.getByRole("button", { name: "Create Account" }),
    });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Phone").fill("<b>abc</b>");

    if (jsEnabled()) {
      // checked in the browser by the same schema: nothing is sent
      await form.getByRole("button", { name: "Create Account" }).click();
      for (const message of MESSAGES) await expect(page.getByText(message)).toBeVisible();
      await expect(form.getByLabel("First name")).toBeFocused();
      expect(new URL(page.url()).pathname).toBe("/");
    } else {
      // the browser's own checks would hold the form: a person (or a script-less client) that
      // gets past them is what the server must refuse
      await form.evaluate((element) => {
        element.setAttribute("novalidate", "");
        for (const field of element.querySelectorAll("[required]")) {
          field.removeAttribute("required");
        }
      });
      const answer = page.waitForResponse(
        (response) =>
          response.request().method() === "POST" && response.url().endsWith("/register"),
      );
      await form.getByRole("button", { name: "Create Account" }).click();
      expect((await answer).status()).toBe(400);
      await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
      for (const message of MESSAGES) await expect(page.getByText(message)).toBeVisible();
      await expect(page.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Phone")).toHaveValue("<b>abc</b>");
      await expect(page.getByLabel("Email")).toHaveValue(email);
    }
    expect(await loginIntent(page)).toEqual([]);
    expect(new URL(page.url()).hostname).toBe("localhost");
    // the page fits the screen it is on
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    // corrected, the same form goes on to sign in, and the names reach the new account
    await page.getByLabel("First name").fill("Mona");
    await page.getByLabel("Last name").fill("Modes");
    await page.getByLabel("Phone").fill("713-555-0142");
    await page.getByLabel("I agree to the Terms of Service and Privacy Policy").check();
    await page.getByRole("button", { name: "Create Account" }).click();
    await submitIssuerForm(page, email);
    await page.waitForURL((url) => url.hostname === "localhost");
    const rows = await query<{ first_name: string; phone: string }>(
      "select first_name, phone from users where email = $1",
      [email],
    );
    expect(rows).toEqual([{ first_name: "Mona", phone: "713-555-0142" }]);
  });
}
