import { seedAffiliates } from "./affiliates";
import { seedListings } from "./listings";
import { seedLots } from "./lots";
import { seedMemberships } from "./memberships";
import { seedPurchases } from "./purchases";
import { seedUsers } from "./users";
import { seedYards } from "./yards";

export type SeedOptions = { args: string[]; log: (line: string) => void };

/** Each seed is idempotent; later features append theirs here, in dependency order. */
const seeds: Array<[string, (options: SeedOptions) => Promise<void>]> = [
  ["users", seedUsers],
  ["listings", seedListings],
  ["yards", seedYards],
  ["lots", seedLots],
  ["memberships", seedMemberships],
  ["affiliates", seedAffiliates],
  ["purchases", seedPurchases],
];

export async function runSeeds(args: string[] = [], log: (line: string) => void = console.log) {
  for (const [name, seed] of seeds) {
    const started = Date.now();
    await seed({ args, log });
    log(`seeded ${name} in ${Date.now() - started} ms`);
  }
}
