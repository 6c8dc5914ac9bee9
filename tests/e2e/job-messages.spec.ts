// A claimed transport job's carrier and buyer write to each other through BidYard's messages
// (record 3535): JavaScript off at 360 px (and on at 1,280 px), by first name only.
import { expect, test, type Page } from "@playwright/test";
import { createAffiliate, createOrder, tag } from "./arrange";
import { ensureUser, query, signInAs } from "./db";
import { jsEnabled, ready } from "./helpers";

const viewport = () => (jsEnabled() ? { width: 1280, height: 900 } : { width: 360, height: 740 });

async function fitsTheWidth(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the carrier writes to the buyer from the job's page; the buyer reads it and the carrier never sees the buyer's e-mail", async ({
  browser,
}) => {
  test.slow();
  const t = tag();
  const project = test.info().project.name;
  const buyerEmail = `e2e-jobmsg-buyer-${project}-${t}@bidyard.test`;
  const carrierEmail = `e2e-jobmsg-carrier-${project}-${t}@bidyard.test`;
  const buyerId = await ensureUser(buyerEmail, { first_name: "Blake", last_name: "Quillfeather" });
  const carrierId = await createAffiliate(carrierEmail);
  const label = `2018 Ford F-150 ${t}`;
  const orderId = await createOrder(label, carrierId);
  await query("UPDATE service_orders SET requested_by = $2 WHERE id = $1", [orderId, buyerId]);

  const carrier = await browser.newContext({
    javaScriptEnabled: jsEnabled(),
    viewport: viewport(),
  });
  try {
    await signInAs(carrier, carrierEmail);
    const page = await carrier.newPage();
    await page.goto(`/service-orders/${orderId}`);
    await ready(page);
    await expect(page.getByRole("heading", { name: "Message the buyer" })).toBeVisible();
    await fitsTheWidth(page);
    await page.getByLabel("Your message to the buyer").fill("I can pick it up Tuesday morning.");
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page).toHaveURL(/\/messages\/\d+$/);
    await expect(page.getByRole("heading", { name: label, level: 1 })).toBeVisible();
    await expect(page.getByText("Buyer: Blake")).toBeVisible();
    await expect(page.getByRole("list", { name: "Messages" })).toContainText(
      "I can pick it up Tuesday morning.",
    );
    const body = (await page.locator("body").textContent()) ?? "";
    expect(body).not.toContain(buyerEmail);
    expect(body).not.toContain("Quillfeather");
    await fitsTheWidth(page);
  } finally {
    await carrier.close();
  }

  const buyer = await browser.newContext({ javaScriptEnabled: jsEnabled(), viewport: viewport() });
  try {
    await signInAs(buyer, buyerEmail);
    const page = await buyer.newPage();
    await page.goto(`/service-orders/${orderId}`);
    await ready(page);
    await expect(page.getByRole("heading", { name: "Message the carrier" })).toBeVisible();
    await page.getByRole("link", { name: "Open the conversation" }).click();
    await expect(page.getByText("Carrier: Casey")).toBeVisible();
    await expect(page.getByRole("list", { name: "Messages" })).toContainText(
      "I can pick it up Tuesday morning.",
    );
    await fitsTheWidth(page);
  } finally {
    await buyer.close();
  }
});
