// Arranges auction lots for integration tests.
import { Lot } from "~/models/auction.server";

let counter = 0;

export async function createTestLot(overrides: Partial<Parameters<typeof Lot.create>[0]> = {}) {
  counter += 1;
  const start = Date.now();
  return Lot.create({
    auctionHouse: "copart",
    lotNumber: `T${process.pid}${counter}${Math.floor(Math.random() * 1e6)}`,
    vin: `1FTEW1EP5JK${String(100000 + counter).slice(-6)}`,
    year: 2018,
    make: "Ford",
    model: "F-150",
    trimLevel: null,
    bodyStyle: null,
    color: null,
    locationCity: "Dallas",
    locationState: "TX",
    locationZip: null,
    yardName: null,
    primaryDamage: "FRONT END",
    secondaryDamage: null,
    titleState: "TX",
    odometer: 40000,
    estimatedValue: "18000.00",
    repairCost: null,
    startsAt: new Date(start - 60 * 60 * 1000),
    endsAt: new Date(start + 24 * 60 * 60 * 1000),
    ...overrides,
  });
}
