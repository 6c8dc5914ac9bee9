import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { Lot } from "~/models/auction.server";
import { importCopartCsv } from "~/services/auctions/import.server";

const SAMPLE = "tests/fixtures/copart-sales-sample.csv";

describe("Copart sales-data import", () => {
  it("imports the good rows, reports each bad row, and a second run changes nothing", async () => {
    const first = await importCopartCsv(fs.createReadStream(SAMPLE));
    expect(first).toMatchObject({ rows: 10, inserted: 4, updated: 0, unchanged: 0 });
    expect(first.skipped.map((s) => [s.lotNumber, s.reason])).toEqual([
      ["71234565", expect.stringContaining("VIN")],
      ["71234566", expect.stringContaining("year")],
      ["71234567", "no valid sale date, time and time zone"],
      ["71234568", "currency CAD is not supported (USD only)"],
      [null, "has 9 columns, the header has 59"],
      ["71234569", expect.stringContaining("odometer")],
    ]);
    expect(first.skipped.map((s) => s.line)).toEqual([6, 7, 8, 9, 10, 11]);

    const camry = await Lot.findOne({
      where: { auctionHouse: "copart", lotNumber: "71234561" },
      rejectOnEmpty: true,
    });
    expect(camry).toMatchObject({
      vin: "4T1B11HK5KU123456",
      year: 2019,
      make: "Toyota",
      model: "Camry",
      trimLevel: "CAMRY LE",
      locationCity: "Dallas",
      locationState: "TX",
      damageType: "collision",
      primaryDamage: "FRONT END",
      titleType: "salvage",
      odometer: 45210,
      runsDrives: true,
      hasKeys: true,
      odometerBrand: "actual",
      runCondition: "run_and_drive",
      conditionCode: "D",
      itemNumber: "101",
      gridRow: "A-12",
      estimatedValue: "18500.00",
      repairCost: "9200.00",
      status: "active",
    });
    // 10:00 CST is 16:00 UTC; bidding opens three days before the sale
    expect(camry.endsAt.toISOString()).toBe("2026-12-14T16:00:00.000Z");
    expect(camry.startsAt.toISOString()).toBe("2026-12-11T16:00:00.000Z");
    const flood = await Lot.findOne({ where: { lotNumber: "71234562" }, rejectOnEmpty: true });
    expect(flood).toMatchObject({
      make: "Ford",
      damageType: "flood",
      titleType: "certificate_of_destruction",
      // "DEFAULT" says nothing; the condition code N says it does not start
      runCondition: "stationary",
      runsDrives: false,
      odometerBrand: "not_actual",
      hasKeys: false,
      itemNumber: "102",
      gridRow: "B-03",
    });
    const silverado = await Lot.findOne({ where: { lotNumber: "71234564" }, rejectOnEmpty: true });
    expect(silverado).toMatchObject({ runCondition: "engine_start", runsDrives: false });
    expect(
      await Lot.findOne({ where: { lotNumber: "71234564" }, rejectOnEmpty: true }).then(
        (l) => l.make,
      ),
    ).toBe("Chevrolet");

    const before = await Lot.findAll({ where: { auctionHouse: "copart" }, order: [["id", "ASC"]] });
    const second = await importCopartCsv(fs.createReadStream(SAMPLE));
    expect(second).toMatchObject({ rows: 10, inserted: 0, updated: 0, unchanged: 4 });
    const after = await Lot.findAll({ where: { auctionHouse: "copart" }, order: [["id", "ASC"]] });
    expect(after.map((l) => l.toJSON())).toEqual(before.map((l) => l.toJSON()));
  });

  it("refuses a file whose header is not Copart's", async () => {
    const file = "tests/fixtures/.not-copart.csv";
    fs.writeFileSync(file, '"Lot","VIN"\n"1","ABCDE"\n');
    try {
      await expect(importCopartCsv(fs.createReadStream(file))).rejects.toThrow(
        /not Copart's sales-data header/,
      );
    } finally {
      fs.unlinkSync(file);
    }
  });

  it("the command prints the per-row report and the totals", async () => {
    const { stdout } = await promisify(execFile)(
      "npx",
      ["tsx", "scripts/import-lots.ts", "--house", "copart", SAMPLE, "--no-pictures"],
      { env: { ...process.env }, timeout: 60_000 },
    );
    expect(stdout).toContain("line 6 (lot 71234565): skipped: VIN");
    expect(stdout).toContain("line 10: skipped: has 9 columns, the header has 59");
    expect(stdout).toMatch(/10 rows: \d+ new, 0 updated, \d+ unchanged, 6 skipped/);
  });
  it("drops control characters from every cell: a quoted line break in a make is a space", async () => {
    const { parse } = await import("csv-parse/sync");
    const [columns, first] = parse(fs.readFileSync(SAMPLE, "utf8"), {
      bom: true,
      relax_column_count: true,
    }) as string[][];
    const row = [...first];
    row[columns.indexOf("Lot number")] = "79990001";
    row[columns.indexOf("Make")] = "Toy\r\nota\u0007";
    row[columns.indexOf("Model Group")] = "CAMRY\u202E";
    const line = (cells: string[]) => cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(",");
    const { Readable } = await import("node:stream");
    const report = await importCopartCsv(Readable.from([`${line(columns)}\n${line(row)}\n`]));
    expect(report).toMatchObject({ rows: 1, inserted: 1 });
    const lot = await Lot.findOne({ where: { lotNumber: "79990001" }, rejectOnEmpty: true });
    expect(lot.make).toBe("Toy Ota");
    expect(lot.model).toBe("Camry");
  });
});
