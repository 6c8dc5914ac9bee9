// The shell as a newcomer meets it, with and without JavaScript, on a desktop and at 360 px
// (issue 20, "What a user meets").
import { expect, test, type Page } from "@playwright/test";
import { signInAs } from "./db";
import { jsEnabled, signInThroughIssuer } from "./helpers";

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
    const shown = Date.now();
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const header = await headerBox(page);
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
    expect(box.height).toBeLessThanOrEqual(96);
    await expect(toast).toBeHidden({ timeout: 9_000 });
    expect(Date.now() - shown).toBeGreaterThan(3_500);
  });
});
