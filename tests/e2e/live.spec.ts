// Live auctions (docs/decisions/1801): two people on one lot. With JavaScript the other page
// follows without a reload (price, "You've been outbid", the extended end); without it, every
// page still shows the truth when it is loaded.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { createLot, tag } from "./arrange";
import { query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

// two browsers, several page loads each: well past the default 30 s on a loaded 2-core machine
test.setTimeout(180_000);

const bidder = (name: string) => ({ verified: true, deposit: "5000.00", first_name: name });

async function onLot(browser: Browser, name: string, lotId: string) {
  const context = await browser.newContext({
    javaScriptEnabled: jsEnabled(),
    extraHTTPHeaders: {
      "fly-client-ip": `10.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    },
  });
  await signInAs(context, `e2e-live-${name}-${tag()}@bidyard.test`, bidder(name));
  const page = await context.newPage();
  await page.goto(`/auctions/${lotId}`);
  await ready(page);
  await expect(page.getByRole("heading", { name: /Camry/ })).toBeVisible();
  return page;
}

async function bid(page: Page, amount: string) {
  await page.getByLabel("Bid amount (USD)").fill(amount);
  await page.getByRole("button", { name: "Place Bid", exact: true }).click();
  await expect(page.getByText("You are the high bidder")).toBeVisible();
}

/** With JS the page is left alone (the stream must bring it); without, it is loaded again. */
async function look(page: Page) {
  if (!jsEnabled()) await page.reload();
}

test("a bid shows on the other bidder's page with the outbid toast, without a reload", async ({
  browser,
}) => {
  const lot = await createLot();
  const bob = await onLot(browser, "Bob", lot.id);
  await bid(bob, "300");
  const alice = await onLot(browser, "Alice", lot.id);
  await expect(alice.getByTestId("current-bid")).toHaveText("$300.00");

  await bid(alice, "450");
  await look(bob);
  await expect(bob.getByTestId("current-bid")).toHaveText("$450.00");
  await expect(bob.getByText("2 bids").first()).toBeVisible();
  await expect(bob.getByText("You have been outbid")).toBeVisible();
  if (jsEnabled()) {
    await expect(bob.getByText("You've been outbid")).toBeVisible();
    await expect(bob.getByText(/the current bid is now \$450\.00/)).toBeVisible();
  }
  await bob.context().close();
  await alice.context().close();
});

test("a snipe in the last two minutes extends the countdown on both pages", async ({ browser }) => {
  const lot = await createLot({ endsIn: "100 seconds" });
  const [{ ends_at: before }] = await query<{ ends_at: Date }>(
    "SELECT ends_at FROM lots WHERE id = $1",
    [lot.id],
  );
  const alice = await onLot(browser, "Alice", lot.id);
  const bob = await onLot(browser, "Bob", lot.id);
  // the countdown and the end time (in the viewer's zone, record 2701) both name the instant
  for (const page of [alice, bob]) {
    await expect(page.locator(`time[datetime="${before.toISOString()}"]`)).toHaveCount(2);
  }

  await bid(alice, "200");
  const [{ ends_at: after }] = await query<{ ends_at: Date }>(
    "SELECT ends_at FROM lots WHERE id = $1",
    [lot.id],
  );
  expect(after.getTime()).toBeGreaterThan(before.getTime());
  await look(bob);
  for (const page of [alice, bob]) {
    await expect(page.locator(`time[datetime="${after.toISOString()}"]`)).toHaveCount(2);
    await expect(page.getByTestId("current-bid")).toHaveText("$200.00");
  }
  await alice.context().close();
  await bob.context().close();
});
