// A bid seen in another browser: two Chromium pages on one lot, signed in as two bidders; each
// bids in turn through the lot page's own form, and the time runs from the click on one page to
// the new price on the other (the live stream, record 1801). Both times are read in the pages on
// the same clock (performance.timeOrigin + performance.now()).
import { chromium, type Page } from "playwright-core";
import { percentile } from "./load";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export async function bidSeenElsewhere(options: {
  base: string;
  chromiumPath: string;
  cookies: [string, string];
  lotId: string;
  bids: number;
  /** the browser's pid, for the bench to stop it whatever happens */
  started: (pid: number | undefined, stop: () => Promise<void>) => void;
}) {
  // a browser server, so that its process is known (and stopped by the bench whatever happens)
  const server = await chromium.launchServer({ executablePath: options.chromiumPath, args: FLAGS });
  options.started(server.process().pid, () => server.close());
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const pages: Page[] = [];
    for (const cookie of options.cookies) {
      // the bench's probes are scripts given as text, which the page's own Content-Security-Policy
      // (no eval) would refuse; the page's scripts run as they do for anyone
      const context = await browser.newContext({ bypassCSP: true });
      const [name, value] = cookie.split(";")[0].split(/=(.*)/s);
      await context.addCookies([{ name, value, url: options.base }]);
      const page = await context.newPage();
      await page.goto(`${options.base}/auctions/${options.lotId}`);
      await page.waitForFunction("window.__remixRouter?.state.initialized");
      // every price the page shows, with when it appeared (the page's scripts are given as text:
      // the bench's own compiled functions carry helpers the page does not have)
      await page.evaluate(`(() => {
        const seen = {};
        window.__pricesSeen = seen;
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="current-bid"]')?.textContent;
          if (text && !(text in seen)) seen[text] = performance.timeOrigin + performance.now();
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      })()`);
      pages.push(page);
    }
    // the live stream is open once the page has hydrated; give it a moment to connect
    await pages[1].waitForTimeout(500);
    const latencies: number[] = [];
    let amount = 100;
    for (let i = 0; i < options.bids; i += 1) {
      const [bidder, watcher] = i % 2 === 0 ? pages : [pages[1], pages[0]];
      amount += 50;
      const shown = `$${amount.toLocaleString("en-US")}.00`;
      await bidder.getByLabel("Bid amount (USD)").fill(String(amount));
      const button = bidder.getByRole("button", { name: "Place Bid", exact: true });
      await button.waitFor();
      // the click's time, read in the page just before it is dispatched
      const clickedAt = (await bidder.evaluate(`(() => {
        const button = [...document.querySelectorAll("button")].find(
          (b) => b.textContent.trim() === "Place Bid",
        );
        const at = performance.timeOrigin + performance.now();
        button.click();
        return at;
      })()`)) as number;
      const seenAt = await watcher.waitForFunction(
        `window.__pricesSeen[${JSON.stringify(shown)}]`,
        undefined,
        {
          timeout: 10_000,
          polling: 10,
        },
      );
      latencies.push(((await seenAt.jsonValue()) as number) - clickedAt);
      // the bidder's own page settles (its form answers) before the other one bids
      await bidder.getByTestId("current-bid").filter({ hasText: shown }).waitFor();
    }
    latencies.sort((a, b) => a - b);
    return {
      bids: latencies.length,
      p50: Math.round(percentile(latencies, 50)),
      p95: Math.round(percentile(latencies, 95)),
      max: Math.round(latencies[latencies.length - 1]),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}
