// Keyboard-only flows: every step moves and acts with page.keyboard (Tab, Enter, Space, arrows,
// Escape); setInputFiles stands in for the operating system's file picker only. The js project
// runs it (playwright.config.ts): dialogs, focus traps and focus return need JavaScript.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createLot, removeKycDocuments, tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { ready } from "./helpers";

/** A short description of the focused element, for failure messages. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "(body)";
    const name =
      el.getAttribute("aria-label") ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      "";
    return `${el.tagName.toLowerCase()}[${name.trim().replace(/\s+/g, " ").slice(0, 40)}]`;
  });
}

async function isFocused(target: Locator) {
  return target.evaluate((el) => el === document.activeElement).catch(() => false);
}

/**
 * Where focus is and whether the user can see it: the element is on screen (or, for a visually
 * hidden radio or checkbox, its label is) and it or its label draws a focus indicator.
 */
async function focusStop(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body)
      return { body: true, visible: true, indicated: true, label: "(body)" };
    const name =
      el.getAttribute("aria-label") ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      "";
    const label = `${el.tagName.toLowerCase()}[${name.trim().replace(/\s+/g, " ").slice(0, 40)}]`;
    const shown = (node: Element) => {
      const box = node.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(node).visibility !== "hidden";
    };
    const labels = el instanceof HTMLInputElement ? Array.from(el.labels ?? []) : [];
    const parts = [el, ...labels.flatMap((label) => [label, ...label.querySelectorAll("*")])];
    // What the element (or its label) looks like focused, then unfocused: the focus indicator is
    // the difference. Focus goes back at once; the last input was a key, so it stays "visible".
    const look = () =>
      parts.map((node) => {
        const style = getComputedStyle(node);
        return [
          style.outlineStyle === "none" ? "" : `${style.outlineWidth} ${style.outlineColor}`,
          style.boxShadow,
          style.borderColor,
          style.backgroundColor,
          style.textDecorationLine,
        ].join("|");
      });
    const focusedLook = look();
    el.blur();
    const unfocusedLook = look();
    el.focus({ preventScroll: true });
    return {
      body: false,
      label,
      visible: shown(el) || labels.some(shown),
      indicated: focusedLook.some((value, i) => value !== unfocusedLook[i]),
      stillVisibleFocus: el.matches(":focus-visible"),
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus. Every stop on the way must be visible and
 * show that it has focus: focus the user cannot see is a bug in itself.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  const path: string[] = [];
  for (let i = 0; i < max; i += 1) {
    if (await isFocused(target)) return path;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const stop = await focusStop(page);
    path.push(stop.label);
    expect(stop.visible, `focus went to something invisible: ${path.at(-1)}`).toBe(true);
    expect(stop.indicated, `no focus indicator on ${path.at(-1)}`).toBe(true);
  }
  throw new Error(`Tab never reached the target. Focus went: ${path.join(" → ")}`);
}

/** Tabs through the whole page once (until focus leaves the document), checking each stop. */
async function tabThrough(page: Page) {
  const path: string[] = [];
  for (let i = 0; i < 400; i += 1) {
    await page.keyboard.press("Tab");
    const stop = await focusStop(page);
    if (stop.body && i > 0) return path;
    path.push(stop.label);
    expect(stop.visible, `${page.url()}: focus went to something invisible: ${path.at(-1)}`).toBe(
      true,
    );
    expect(stop.indicated, `${page.url()}: no focus indicator on ${path.at(-1)}`).toBe(true);
  }
  throw new Error(`Tab never left ${page.url()}: ${path.slice(-10).join(" → ")}`);
}

const unique = () => `${test.info().project.name}-${tag()}`;

test("the bid dialog: open, type, submit with Enter, trapped focus, Escape returns focus", async ({
  page,
  context,
}) => {
  await signInAs(context, `kbd-bid-${unique()}@bidyard.test`, {
    first_name: "Kay",
    verified: true,
    deposit: "5000.00",
  });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  const lot = await createLot({ model: `Camry ${tag()}` });
  await page.goto(`/auctions?search=${lot.vin}`);
  await ready(page);
  await expect(page.getByText("1 auction found")).toBeVisible();

  const trigger = page.getByRole("link", { name: "Place Bid", exact: true });
  await tabTo(page, trigger);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: /Place Bid: 2019 Toyota Camry/ })).toBeVisible();

  // Focus is inside the dialog and Tab cycles within it, both ways.
  const panelHasFocus = () =>
    dialog.evaluate((el) => el.contains(document.activeElement)).catch(() => false);
  expect(await panelHasFocus(), `focus after opening: ${await focused(page)}`).toBe(true);
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press("Tab");
    expect(await panelHasFocus(), `Tab ${i + 1} left the dialog: ${await focused(page)}`).toBe(
      true,
    );
  }
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press("Shift+Tab");
    expect(await panelHasFocus(), `Shift+Tab ${i + 1} left the dialog`).toBe(true);
  }

  // Escape closes it and focus goes back to the link that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  // The dialog gives focus back after its closing transition: wait for it, as a user would.
  await expect(trigger, "focus after Escape").toBeFocused();

  // Open it again from the focused link and bid with the keyboard only.
  await page.keyboard.press("Enter");
  const amount = dialog.getByLabel("Bid amount (USD)");
  await expect(amount).toBeVisible();
  await tabTo(page, amount);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type("275");
  await expect(amount).toHaveValue("275");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").getByText("Bid Placed Successfully")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(trigger, "focus after bidding").toBeFocused();
  const [row] = await query<{ current_bid: string }>("SELECT current_bid FROM lots WHERE id = $1", [
    lot.id,
  ]);
  expect(row.current_bid).toBe("275.00");
});

test("KYC upload with the keyboard: document type, file, submit", async ({ page, context }) => {
  const email = `kbd-kyc-${unique()}@bidyard.test`;
  const userId = await signInAs(context, email, { first_name: "Kim" });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await page.goto("/kyc-verification");
  await ready(page);
  await expect(page.getByRole("heading", { name: "Identity Verification" })).toBeVisible();

  // The document types are one radio group: Tab into it, arrows choose.
  const license = page.getByRole("radio", { name: "Driver's license", exact: true });
  const passport = page.getByRole("radio", { name: "Passport", exact: true });
  await expect(license).toBeChecked();
  await tabTo(page, license);
  await page.keyboard.press("ArrowRight");
  await expect(passport).toBeChecked();
  await expect(passport).toBeFocused();
  await expect(license).not.toBeChecked();

  // Tab to the file control; the operating system's picker is what setInputFiles plays.
  const file = page.getByLabel("ID document (1 file, up to 10 MB)");
  await tabTo(page, file);
  await page.locator(":focus").setInputFiles({
    name: "id.png",
    mimeType: "image/png",
    // a real 2×2 PNG: every kept image is decoded (record 3209)
    buffer: Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQI12PQiuoCIgYIBQAcFgQ5ALm8KgAAAABJRU5ErkJggg==",
      "base64",
    ),
  });
  await tabTo(page, page.getByRole("button", { name: "Upload Document" }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Your document has been submitted for review.")).toBeVisible();
  await expect(page.getByText("Under Review")).toBeVisible();
  // The form gives way to the document under review, and focus goes to that news, not back to
  // the top of the page.
  await expect(page.getByRole("heading", { name: "Document sent" })).toBeFocused();
  await expect(page.getByRole("button", { name: "Upload Document" })).toHaveCount(0);
  const rows = await query<{ document_type: string }>(
    `SELECT k.document_type FROM kyc_documents k JOIN users u ON u.id = k.user_id
      WHERE u.email = $1`,
    [email],
  );
  expect(rows).toEqual([{ document_type: "passport" }]);
  // Out of the admin's review queue again (other tests count it).
  await removeKycDocuments(userId);
});

test("a deposit with the keyboard through the TEST MODE gateway", async ({ page, context }) => {
  await signInAs(context, `kbd-deposit-${unique()}@bidyard.test`, {
    first_name: "Dee",
    verified: true,
  });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await page.goto("/deposit");
  await ready(page);
  await expect(page.getByTestId("balance")).toHaveText("$0.00");

  await tabTo(page, page.getByLabel("Custom"));
  await page.keyboard.type("750.50");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Deposit Amount:")).toContainText("$750.50");
  await ready(page);

  await tabTo(page, page.getByRole("button", { name: "Pay with Test Gateway" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Test Checkout" })).toBeVisible();
  await ready(page);
  await expect(page.getByTestId("test-checkout-amount")).toHaveText("$750.50");
  await tabTo(page, page.getByRole("button", { name: "Approve payment" }));
  await page.keyboard.press("Enter");

  await expect(page.getByText(/Deposit Successful/)).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$750.50");
});

// The sweep presses Tab about 800 times; on a loaded 2-core machine each press and check costs
// 100–300 ms, so the screens are split into parts, each a test with its own time limit.
test.describe("every stop on the main screens is visible and shows focus", () => {
  let who: { email: string; userId: string; lotId: string; listingId: string };

  test.beforeAll(async () => {
    const email = `kbd-sweep-${tag()}@bidyard.test`;
    const userId = await ensureUser(email, {
      first_name: "Sam",
      verified: true,
      deposit: "1000.00",
      role: "admin",
    });
    const lot = await createLot({ model: `Civic ${tag()}` });
    const [listing] = await query<{ id: string }>(
      "SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1",
    );
    who = { email, userId, lotId: lot.id, listingId: listing.id };
  });

  const parts: { name: string; screens: () => string[]; narrow?: boolean }[] = [
    { name: "auctions", screens: () => ["/", "/auctions", `/auctions/${who.lotId}`] },
    {
      name: "listings",
      screens: () => ["/community-vehicles", `/vehicle/${who.listingId}`, "/post-vehicle"],
    },
    {
      name: "account",
      screens: () => ["/deposit", "/kyc-verification", "/membership", "/notifications"],
    },
    {
      name: "services",
      screens: () => ["/affiliate-registration", "/service-orders", "/service-orders/request"],
    },
    {
      name: "admin",
      screens: () => [
        "/admin",
        "/admin?tab=settings",
        `/admin/users/${who.userId}`,
        "/admin/kyc",
        "/admin/affiliates",
        "/admin/service-orders/new",
      ],
    },
    { name: "360 px", screens: () => ["/", "/community-vehicles", "/auctions"], narrow: true },
  ];

  for (const part of parts) {
    test(part.name, async ({ page, context }) => {
      test.setTimeout(180_000);
      await signInAs(context, who.email);
      await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
      if (part.narrow) await page.setViewportSize({ width: 360, height: 740 });
      for (const path of part.screens()) {
        await page.goto(path);
        await ready(page);
        const stops = await tabThrough(page);
        if (!part.narrow) expect(stops.length, `${path}: nothing to Tab to`).toBeGreaterThan(5);
      }
    });
  }
});

test("the first Tab offers Skip to content, and it skips the banner and the header", async ({
  page,
  context,
}) => {
  await signInAs(context, `kbd-skip-${unique()}@bidyard.test`, { first_name: "Sky" });
  await context.addInitScript(() => localStorage.setItem("onboarding_completed", "true"));
  await page.goto("/deposit");
  await ready(page);
  await expect(page.getByRole("complementary", { name: /beta/i })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  // The next stop is the page's own first control, inside main.
  expect(
    await page.evaluate(() => document.getElementById("main")!.contains(document.activeElement)),
    `after skipping, focus went to ${await focused(page)}`,
  ).toBe(true);
});
