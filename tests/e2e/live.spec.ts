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

/** Every moving panel of `page`, read at once (docs/decisions/2752). */
async function expectPanels(
  page: Page,
  want: {
    price: string;
    bids: number;
    endsAt: Date;
    notice: { leader: string } | { outbid: string } | null;
    available: string | null;
    held: string | null;
  },
) {
  await expect(page.getByTestId("current-bid")).toHaveText(want.price);
  await expect(page.getByTestId("bid-count")).toHaveText(`${want.bids} bids`);
  await expect(page.getByTestId("bid-history").locator("tbody tr")).toHaveCount(want.bids);
  // the end time names the instant, and so does the countdown beside the bid count
  await expect(
    page.getByTestId("ends-at").locator(`time[datetime="${want.endsAt.toISOString()}"]`),
  ).toHaveCount(1);
  await expect(page.locator(`time[datetime="${want.endsAt.toISOString()}"]`)).toHaveCount(2);
  if (want.notice && "leader" in want.notice) {
    await expect(page.getByTestId("leader-notice")).toContainText(want.notice.leader);
    await expect(page.getByTestId("outbid-notice")).toHaveCount(0);
  } else if (want.notice) {
    await expect(page.getByTestId("outbid-notice")).toHaveText(want.notice.outbid);
    await expect(page.getByTestId("leader-notice")).toHaveCount(0);
  }
  if (want.available === null) await expect(page.getByTestId("buying-power")).toHaveCount(0);
  else await expect(page.getByTestId("buying-power")).toHaveText(want.available);
  if (want.held === null) await expect(page.getByTestId("held-on-lot")).toHaveCount(0);
  else
    await expect(page.getByTestId("held-on-lot")).toContainText(
      `Held from your deposit for this lot: ${want.held} (your maximum`,
    );
}

async function endsAt(lotId: string) {
  const [{ ends_at }] = await query<{ ends_at: Date }>("SELECT ends_at FROM lots WHERE id = $1", [
    lotId,
  ]);
  return ends_at;
}

test("every panel agrees on both pages after an outbid, a re-lead, the extension and the close", async ({
  browser,
}) => {
  // soft close: every bid here lands in the last two minutes and moves the end
  const lot = await createLot({ endsIn: "100 seconds" });
  const alice = await onLot(browser, "Alice", lot.id);
  await bid(alice, "300");
  const bob = await onLot(browser, "Bob", lot.id);

  // Bob outbids Alice
  await bid(bob, "450");
  let end = await endsAt(lot.id);
  await look(alice);
  await expectPanels(alice, {
    price: "$450.00",
    bids: 2,
    endsAt: end,
    notice: { outbid: "You have been outbid" },
    available: "$5,000.00",
    held: null,
  });
  if (jsEnabled()) await expect(alice.getByText("You've been outbid")).toBeVisible();
  await expectPanels(bob, {
    price: "$450.00",
    bids: 2,
    endsAt: end,
    notice: { leader: "You are the high bidder (your maximum: $450.00)" },
    available: "$4,550.00",
    held: "$450.00",
  });

  // Alice takes the lead back; the end moves again
  await bid(alice, "600");
  const extended = await endsAt(lot.id);
  expect(extended.getTime()).toBeGreaterThan(end.getTime());
  end = extended;
  await look(bob);
  await expectPanels(bob, {
    price: "$600.00",
    bids: 3,
    endsAt: end,
    notice: { outbid: "You have been outbid" },
    available: "$5,000.00",
    held: null,
  });
  await expectPanels(alice, {
    price: "$600.00",
    bids: 3,
    endsAt: end,
    notice: { leader: "You are the high bidder (your maximum: $600.00)" },
    available: "$4,400.00",
    held: "$600.00",
  });

  // the hammer: the lot's close job (moved to the new end) closes it, and both pages say who won,
  // without a reload with JS (a page never closes a lot itself: docs/decisions/3562)
  await query("UPDATE lots SET ends_at = now() - interval '1 second' WHERE id = $1", [lot.id]);
  end = await endsAt(lot.id);
  await expect
    .poll(
      async () =>
        (await query<{ status: string }>("SELECT status FROM lots WHERE id = $1", [lot.id]))[0]
          .status,
      { timeout: 15_000 },
    )
    .not.toBe("active");
  await look(alice);
  await look(bob);
  for (const page of [alice, bob])
    await expect(page.getByRole("button", { name: "Auction Ended" })).toBeVisible({
      timeout: 15_000,
    });
  await expectPanels(alice, {
    price: "$600.00",
    bids: 3,
    endsAt: end,
    notice: { leader: "You won this lot" },
    available: null,
    held: null,
  });
  await expectPanels(bob, {
    price: "$600.00",
    bids: 3,
    endsAt: end,
    notice: { outbid: "You did not win this lot" },
    available: null,
    held: null,
  });
  // an ended lot says so, names the hammer price, and prices no win that can no longer happen
  await alice.reload();
  await expect(alice.getByTestId("leader-notice")).toContainText("You won this lot at $600.00");
  for (const page of [alice, bob]) {
    await expect(page.getByTestId("ends-at")).toContainText("Ended");
    await expect(page.locator("#all-in")).toHaveCount(0);
  }
  await alice.context().close();
  await bob.context().close();
});

test("a card on the auctions list follows a bid made elsewhere, without a reload", async ({
  browser,
}) => {
  // ending soonest first, so the new lot is on the list's first page
  const lot = await createLot({ endsIn: "10 minutes" });
  const context = await browser.newContext({ javaScriptEnabled: jsEnabled() });
  await signInAs(context, `e2e-live-watcher-${tag()}@bidyard.test`, bidder("Watcher"));
  const watcher = await context.newPage();
  await watcher.goto("/auctions?sort=ending");
  await ready(watcher);
  const card = watcher.locator("article", {
    has: watcher.locator(`a[href="/auctions/${lot.id}"]`),
  });
  await expect(card.getByText("No bids")).toBeVisible();

  const alice = await onLot(browser, "Alice", lot.id);
  await bid(alice, "350");
  await look(watcher);
  await expect(card.getByText("$350.00")).toBeVisible();
  await alice.context().close();
  await context.close();
});
