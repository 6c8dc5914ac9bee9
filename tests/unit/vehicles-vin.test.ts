import { describe, expect, it } from "vitest";
import { decodeVin } from "~/services/vehicles/decode.server";
import { compareWithVin, describeVerdict } from "~/services/vehicles/disagreement";
import {
  expectedCheckDigit,
  hasValidCheckDigit,
  modelYearOf,
  normalizeVin,
  withCheckDigit,
} from "~/services/vehicles/vin";

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

  it("matches model names by whole words, not by one name appearing anywhere in the other", async () => {
    const agrees = async (draft: string, make: string, model: string) => {
      const decoded = await decodeVin(withCheckDigit(draft));
      return compareWithVin({ year: decoded!.modelYear!, make, model }, decoded, decoded!.vin)
        .status;
    };
    // vPIC's Mazda3 is "3" or "Mazda 3" to a seller, but a CX-30 is neither (nor a CX-3).
    const MAZDA3 = "JM1BPAAL0L1123456";
    const CX30 = "3MVDMBBL0LM123456";
    expect(await agrees(MAZDA3, "Mazda", "3")).toBe("ok");
    expect(await agrees(MAZDA3, "Mazda", "Mazda 3 Select")).toBe("ok");
    expect(await agrees(CX30, "Mazda", "CX-30")).toBe("ok");
    expect(await agrees(CX30, "Mazda", "CX30 Base")).toBe("ok");
    expect(await agrees(CX30, "Mazda", "3")).toBe("disagrees");
    expect(await agrees(CX30, "Mazda", "CX-3")).toBe("disagrees");
    // F-150 however it is written, with more words after it, but not F-250 or a lone F.
    const F150 = "1FTFW1ET0DFA12345";
    for (const model of ["F-150", "F150", "f 150", "F-150 SuperCrew", "Ford F-150 XLT"])
      expect(await agrees(F150, "Ford", model), model).toBe("ok");
    for (const model of ["F-250", "F", "F1"])
      expect(await agrees(F150, "Ford", model), model).toBe("disagrees");
    // "3 Series" is the 328i's series; a Grand Cherokee is not a Cherokee.
    expect(await agrees("WBA8E9G50GN123456", "BMW", "3 Series")).toBe("ok");
    expect(await agrees("WBA8E9G50GN123456", "BMW", "5 Series")).toBe("disagrees");
    expect(await agrees("1C4PJMCB0KW123456", "Jeep", "Cherokee")).toBe("ok");
    expect(await agrees("1C4PJMCB0KW123456", "Jeep", "Grand Cherokee")).toBe("disagrees");
  });

  it("ignores a series too short to name a model", async () => {
    const charger = (await decodeVin(withCheckDigit("2C3CDXBG0KH123456")))!;
    expect(charger.model).toBe("Charger");
    const stated = (model: string) => ({ year: charger.modelYear!, make: "Dodge", model });
    for (const series of ["S", "SE", "LD"]) {
      const decoded = { ...charger, series };
      expect(compareWithVin(stated("Stealth"), decoded, charger.vin).status, series).toBe(
        "disagrees",
      );
      expect(compareWithVin(stated("Charger SE"), decoded, charger.vin).status).toBe("ok");
    }
    // A longer series still counts: vPIC gives Silverado 1500s the model Silverado, series 1500.
    const decoded = { ...charger, model: "Silverado", series: "1500" };
    expect(compareWithVin(stated("1500"), decoded, charger.vin).status).toBe("ok");
  });

  it("says a mistyped VIN fails its check digit before comparing anything", async () => {
    const vin = "1HGCM82633A004353";
    const verdict = compareWithVin({ year: 2003, make: "Honda", model: "Accord" }, null, vin);
    expect(verdict.status).toBe("check_digit");
    expect(describeVerdict(verdict, vin)).toContain("check digit");
  });
});
