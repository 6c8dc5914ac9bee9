// The read-your-writes cookie's log positions (docs/decisions/3701) compare as PostgreSQL's do.
import { describe, expect, it } from "vitest";
import { parseWalPosition } from "~/utils/wal-position";

describe("parseWalPosition", () => {
  it("reads both halves, the high one worth 2^32", () => {
    expect(parseWalPosition("0/16B3748")).toBe(0x16b3748n);
    expect(parseWalPosition("1/0")).toBe(2n ** 32n);
    expect(parseWalPosition("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
  });

  it("orders positions across the halves", () => {
    expect(parseWalPosition("0/FFFFFFFF")! < parseWalPosition("1/0")!).toBe(true);
    expect(parseWalPosition("A/1")! > parseWalPosition("9/FFFFFFFF")!).toBe(true);
  });

  it("refuses what is not a position", () => {
    for (const text of [
      null,
      undefined,
      "",
      "0",
      "0/",
      "/1",
      "G/1",
      "1/2/3",
      "123456789/0",
      " 0/1",
    ])
      expect(parseWalPosition(text)).toBeNull();
  });
});
