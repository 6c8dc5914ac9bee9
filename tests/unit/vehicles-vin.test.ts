import { describe, expect, it } from "vitest";
import { decodeVin } from "~/modules/vehicles/decode.server";
import { compareWithVin, describeVerdict } from "~/modules/vehicles/disagreement";
import {
  expectedCheckDigit,
  hasValidCheckDigit,
  modelYearOf,
  normalizeVin,
  withCheckDigit,
} from "~/modules/vehicles/vin";

describe("the North American check digit", () => {
  it("accepts real VINs whose ninth character is right", () => {
    // a 2003 Honda Accord, a 2023 Hyundai Kona, and the textbook example whose digit is X
    for (const vin of ["1HGCM82633A004352", "KM8K2CAB4PU001140", "1M8GDM9AXKP042788"])
      expect(hasValidCheckDigit(vin), vin).toBe(true);
  });

  it("refuses a VIN with one character changed, and says what position 9 should be", () => {
    expect(hasValidCheckDigit("1HGCM82633A004353")).toBe(false);
    expect(hasValidCheckDigit("5YJ3E1EA7KF317000")).toBe(false);
    expect(expectedCheckDigit("5YJ3E1EA7KF317000")).toBe("2");
    expect(withCheckDigit("5YJ3E1EA7KF317000")).toBe("5YJ3E1EA2KF317000");
  });

  it("refuses malformed VINs (length, I/O/Q)", () => {
    expect(expectedCheckDigit("1HGCM82633A00435")).toBeNull();
    expect(hasValidCheckDigit("1HGCM8263IA004352")).toBe(false);
    expect(normalizeVin(" 1hgcm-82633a004352 ")).toBe("1HGCM82633A004352");
  });

  it("reads the model year from position 10 in the right 30-year cycle", () => {
    expect(modelYearOf("1HGCM82633A004352")).toBe(2003);
    expect(modelYearOf("KM8K2CAB4PU001140")).toBe(2023);
    expect(modelYearOf("1FTEW1EP5FFA12345")).toBe(2015);
  });
});

describe("offline VIN decoding (NHTSA vPIC)", () => {
  it("decodes a 2003 Honda Accord: make, model, year, body, engine", async () => {
    const decoded = await decodeVin("1HGCM82633A004352");
    expect(decoded).toMatchObject({
      decoded: true,
      checkDigitValid: true,
      make: "Honda",
      model: "Accord",
      modelYear: 2003,
      bodyStyle: "Coupe",
      engine: { cylinders: "6" },
    });
  });

  it("decodes a 2023 Hyundai Kona with its plant", async () => {
    const decoded = await decodeVin("KM8K2CAB4PU001140");
    expect(decoded).toMatchObject({
      make: "Hyundai",
      model: "Kona",
      modelYear: 2023,
      bodyStyle: "SUV",
      plant: { city: "Ulsan", country: "South Korea" },
      engine: { displacementLiters: "2" },
    });
  });

  it("gives null for a malformed VIN and decoded:false for an unknown maker", async () => {
    expect(await decodeVin("NOTAVIN")).toBeNull();
    const unknown = await decodeVin(withCheckDigit("ZZZ00000000000000"));
    expect(unknown?.decoded).toBe(false);
  });
});

describe("a VIN against the stated year, make and model", () => {
  it("agrees when the names differ only in style", async () => {
    const accord = await decodeVin("1HGCM82633A004352");
    expect(
      compareWithVin({ year: 2003, make: "HONDA", model: "ACCORD EX" }, accord, accord!.vin),
    ).toMatchObject({ status: "ok" });
  });

  it("flags a wrong year, a wrong make and a wrong model", async () => {
    const accord = await decodeVin("1HGCM82633A004352");
    const vin = accord!.vin;
    expect(compareWithVin({ year: 2013, make: "Honda", model: "Accord" }, accord, vin)).toEqual({
      status: "disagrees",
      disagreements: [{ field: "year", stated: "2013", decoded: "2003" }],
    });
    expect(
      compareWithVin({ year: 2003, make: "Toyota", model: "Camry" }, accord, vin).disagreements,
    ).toEqual([{ field: "make", stated: "Toyota", decoded: "Honda" }]);
    const verdict = compareWithVin({ year: 2003, make: "Honda", model: "Civic" }, accord, vin);
    expect(verdict.disagreements).toEqual([{ field: "model", stated: "Civic", decoded: "Accord" }]);
    expect(describeVerdict(verdict, vin)).toContain("model Accord");
  });

  it("says a mistyped VIN fails its check digit before comparing anything", async () => {
    const vin = "1HGCM82633A004353";
    const verdict = compareWithVin({ year: 2003, make: "Honda", model: "Accord" }, null, vin);
    expect(verdict.status).toBe("check_digit");
    expect(describeVerdict(verdict, vin)).toContain("check digit");
  });
});
