// @vitest-environment happy-dom
// Price guidance from its own evidence (docs/decisions/2703): the likely range rests on the
// comparable sales shown, "You could save" is measured from their median and only for running
// vehicles with enough of them, and the budget answer says when the budget is already passed.
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AllInEstimateCard } from "~/components/purchases/all-in-estimate";
import {
  bidAdvice,
  bidGuidance,
  likelyPrice,
  MIN_COMPARABLES,
  salesSpread,
} from "~/services/results/guidance";
import type { AllInEstimate } from "~/services/purchases/estimate.server";

afterEach(cleanup);

const dollars = (...values: number[]) => values.map((v) => v * 100);

describe("the likely price", () => {
  it("with enough sales: their middle half, in $25 steps, never outside the lowest and highest", () => {
    const sets = [
      dollars(1000, 1200, 1900, 2300, 5100),
      dollars(3590, 3590, 3590),
      dollars(2010, 2020, 2030),
      dollars(100, 99_000, 99_500, 99_900),
    ];
    for (const prices of sets) {
      expect(prices.length).toBeGreaterThanOrEqual(MIN_COMPARABLES);
      const likely = likelyPrice(prices, 150_000)!;
      const spread = salesSpread(prices);
      expect(likely.basis).toBe("sales");
      expect(likely.count).toBe(prices.length);
      expect(Number(likely.low)).toBeGreaterThanOrEqual(Number(spread.min));
      expect(Number(likely.high)).toBeLessThanOrEqual(Number(spread.max));
      expect(Number(likely.low)).toBeLessThanOrEqual(Number(likely.high));
    }
    expect(likelyPrice(dollars(1000, 1200, 1900, 2300, 5100), null)).toMatchObject({
      low: "1200.00",
      high: "2300.00",
    });
    // all sales at one odd price: the range is that price, not a rounded one beside it
    expect(likelyPrice(dollars(3590, 3590, 3590), null)).toMatchObject({
      low: "3590.00",
      high: "3590.00",
    });
  });

  it("with few sales: a wide range around them that says so, never the model's guess against them", () => {
    // the 2018 BMW X3: two sales of $3,575 and $4,550, a model guess of about $1,550
    const likely = likelyPrice(dollars(3575, 4550), 155_000)!;
    expect(likely).toEqual({ low: "2850.00", high: "5475.00", basis: "few_sales", count: 2 });
    expect(Number(likely.low)).toBeLessThanOrEqual(3575);
    expect(Number(likely.high)).toBeGreaterThanOrEqual(4550);
  });

  it("with no sales: the value model's guess ±20 %, or nothing without one", () => {
    expect(likelyPrice([], 585_000)).toEqual({
      low: "4675.00",
      high: "7025.00",
      basis: "model",
      count: 0,
    });
    expect(likelyPrice([], null)).toBeNull();
  });
});

describe("what the bid form says about a bid", () => {
  const prices = dollars(3000, 3400, 3800, 4200, 4600);
  const spread = salesSpread(prices);
  const likely = likelyPrice(prices, null);
  // the issue's $700 bid paid about $538 of fees
  const fees = (bidCents: number) => bidCents + 53_790;

  it("the issue's lot: a $700 bid is about $1,238 all in, $6,637 under a $7,875 median", () => {
    const sold = dollars(7000, 7500, 7875, 8200, 8600);
    const guidance = bidGuidance(likelyPrice(sold, null), salesSpread(sold), true);
    expect(bidAdvice(70_000, guidance, fees)?.text).toBe(
      "About $1,238 all in with the fees, $6,637 under the likely price of $7,875.00 (the median of 5 comparable sales).",
    );
  });

  it("a running vehicle with enough sales: the saving against their median", () => {
    const guidance = bidGuidance(likely, spread, true);
    expect(guidance?.median).toBe("3800.00");
    // the saving is said from the all-in cost, never from the bare bid (record 3542)
    expect(bidAdvice(300_000, guidance, fees)).toEqual({
      kind: "save",
      text: "About $3,538 all in with the fees, $262 under the likely price of $3,800.00 (the median of 5 comparable sales).",
    });
    expect(bidAdvice(300_000, guidance)).toBeNull();
    // the bid under the median but the all-in cost above it: no saving claimed
    expect(bidAdvice(330_000, guidance, fees)).toBeNull();
    // at or above the median, and inside the range: nothing to say
    expect(bidAdvice(380_000, guidance, fees)).toBeNull();
    expect(bidAdvice(420_000, guidance, fees)).toBeNull();
    expect(bidAdvice(420_100, guidance)).toEqual({
      kind: "above",
      text: "Warning: your bid is above the likely price of $3,400.00 – $4,200.00 (the middle half of 5 comparable sales).",
    });
  });

  it("a non-runner: never a saving, still the warning above the range", () => {
    const guidance = bidGuidance(likely, spread, false);
    expect(bidAdvice(100_000, guidance, fees)).toBeNull();
    expect(bidAdvice(500_000, guidance, fees)?.kind).toBe("above");
  });

  it("too few sales, or only the model: no comparison at all", () => {
    const few = dollars(3575, 4550);
    expect(bidGuidance(likelyPrice(few, null), salesSpread(few), true)).toBeNull();
    expect(bidGuidance(likelyPrice([], 585_000), salesSpread([]), true)).toBeNull();
    expect(bidAdvice(100_000, null)).toBeNull();
  });
});

describe("the budget answer", () => {
  const estimate = (fields: Partial<AllInEstimate>): AllInEstimate => ({
    bid: "550",
    budget: "400",
    to: "",
    error: null,
    errors: {},
    bidCents: 55_000,
    lines: [{ code: "hammer", label: "Winning bid", cents: 55_000 }],
    totalCents: 55_000,
    transport: null,
    budgetCents: 40_000,
    maxBidCents: 35_200,
    minBidCents: 55_000,
    terms: {
      lateFeeCents: 5_000,
      storageFreeDays: 3,
      storagePerDayCents: 2_500,
      defaultGraceDays: 2,
      defaultFeeCents: 40_000,
    },
    ...fields,
  });

  function renderCard(value: AllInEstimate) {
    const Stub = createRemixStub([
      { path: "/", Component: () => <AllInEstimateCard estimate={value} action="/auctions/1" /> },
    ]);
    render(<Stub initialEntries={["/"]} />);
  }

  it("says when the budget is already below the lot's minimum bid", async () => {
    renderCard(estimate({}));
    expect((await screen.findByTestId("max-bid")).textContent).toBe(
      "To pay at most $400.00 all in, bid up to $352.00. Your budget is already passed: the minimum bid on this lot is $550.00.",
    );
  });

  it("answers the highest bid alone while the lot is still within the budget", async () => {
    renderCard(estimate({ budgetCents: 300_000, maxBidCents: 250_000 }));
    expect((await screen.findByTestId("max-bid")).textContent).toBe(
      "To pay at most $3,000.00 all in, bid up to $2,500.00.",
    );
  });

  it("a budget that covers no bid's fees is passed too", async () => {
    renderCard(estimate({ budgetCents: 10_000, maxBidCents: null }));
    expect((await screen.findByTestId("max-bid")).textContent).toBe(
      "$100.00 does not cover the fees of any bid. Your budget is already passed: the minimum bid on this lot is $550.00.",
    );
  });
});
