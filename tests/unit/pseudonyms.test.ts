import { afterEach, describe, expect, it } from "vitest";
import { maskBidder } from "~/services/auctions/lots.server";
import { resetEnvForTests } from "~/platform/env.server";
import { pseudonymNumber, sellerHandle } from "~/platform/pseudonyms.server";

const USER = "6f1c2b9e-1111-4222-8333-944455556666";
const OTHER = "0a0b0c0d-1111-4222-8333-944455556666";

function withSecret<T>(secret: string, work: () => T): T {
  const before = process.env.SESSION_SECRET;
  process.env.SESSION_SECRET = secret;
  resetEnvForTests();
  try {
    return work();
  } finally {
    if (before === undefined) delete process.env.SESSION_SECRET;
    else process.env.SESSION_SECRET = before;
    resetEnvForTests();
  }
}

afterEach(() => resetEnvForTests());

describe("public pseudonyms", () => {
  it("bidder numbers are stable per lot, differ across lots, and depend on the secret", () => {
    const a = withSecret("first-secret-0123456789abcdefghijklmnop", () => [
      maskBidder(USER, "41"),
      maskBidder(USER, "41"),
      maskBidder(USER, "42"),
    ]);
    expect(a[0]).toMatch(/^Bidder \d{4}$/);
    expect(a[0]).toBe(a[1]);
    const numbers = withSecret("first-secret-0123456789abcdefghijklmnop", () =>
      Array.from({ length: 20 }, (_, i) => pseudonymNumber("bidder", String(i), USER)),
    );
    expect(new Set(numbers).size).toBeGreaterThan(10);
    const other = withSecret("second-secret-0123456789abcdefghijklmno", () =>
      Array.from({ length: 20 }, (_, i) => pseudonymNumber("bidder", String(i), USER)),
    );
    expect(other).not.toEqual(numbers);
    for (const n of [...numbers, ...other]) {
      expect(n).toBeGreaterThanOrEqual(1000);
      expect(n).toBeLessThanOrEqual(9999);
    }
  });

  it("seller handles: one per seller, not the id, and keyed", () => {
    const [one, same, two] = withSecret("first-secret-0123456789abcdefghijklmnop", () => [
      sellerHandle(USER),
      sellerHandle(USER),
      sellerHandle(OTHER),
    ]);
    expect(one).toMatch(/^seller-[0-9a-f]{12}$/);
    expect(one).toBe(same);
    expect(one).not.toBe(two);
    expect(one).not.toContain(USER.slice(0, 8));
    const rekeyed = withSecret("second-secret-0123456789abcdefghijklmno", () => sellerHandle(USER));
    expect(rekeyed).not.toBe(one);
  });
});
