import { describe, expect, it } from "vitest";
import {
  expandBodyStyle,
  odometerBrandLabel,
  parseOdometerBrand,
  parseRunCondition,
  runConditionLabel,
  yardLabel,
} from "~/services/auctions/house-facts";

describe("the houses' lot facts", () => {
  it("reads the odometer brand as Copart prints it", () => {
    expect(parseOdometerBrand("ACTUAL")).toBe("actual");
    expect(parseOdometerBrand("NOT ACTUAL")).toBe("not_actual");
    expect(parseOdometerBrand("EXEMPT")).toBe("exempt");
    expect(parseOdometerBrand("EXCEEDS MECHANICAL LIMITS")).toBe("exceeds_limits");
    expect(parseOdometerBrand("")).toBeNull();
    expect(odometerBrandLabel("not_actual")).toBe("Not actual");
    expect(odometerBrandLabel(null)).toBe("Not stated");
  });

  it("grades the run condition from the Runs/Drives text, else the condition code", () => {
    expect(parseRunCondition("RUNS AND DRIVES", "")).toBe("run_and_drive");
    expect(parseRunCondition("Run & Drive Verified", "")).toBe("run_and_drive");
    expect(parseRunCondition("ENGINE START PROGRAM", "D")).toBe("engine_start");
    expect(parseRunCondition("STATIONARY", "")).toBe("stationary");
    expect(parseRunCondition("DEFAULT", "N")).toBe("stationary");
    expect(parseRunCondition("DEFAULT", "CERT-D")).toBe("run_and_drive");
    expect(parseRunCondition("DEFAULT", "")).toBeNull();
  });

  it("names the grade as each house does", () => {
    expect(runConditionLabel("copart", "run_and_drive")).toBe("Run and Drive");
    expect(runConditionLabel("copart", "engine_start")).toBe("Engine Start");
    expect(runConditionLabel("iaai", "run_and_drive")).toBe("Run & Drive");
    expect(runConditionLabel("iaai", "engine_start")).toBe("Starts");
    expect(runConditionLabel("iaai", "stationary")).toBe("Stationary");
    expect(runConditionLabel("copart", null)).toBe("Not verified");
  });

  it("spells out the houses' body-style abbreviations", () => {
    expect(expandBodyStyle("4DR SPOR")).toBe("4-door sport utility");
    expect(expandBodyStyle("SEDAN 4D")).toBe("Sedan, 4-door");
    expect(expandBodyStyle("CREW PIC")).toBe("Crew cab pickup");
    expect(expandBodyStyle("HATCHBAC")).toBe("Hatchback");
    expect(expandBodyStyle("CREW PICKUP")).toBe("Crew pickup");
    expect(expandBodyStyle("ROADSTER")).toBe("Roadster");
    expect(expandBodyStyle(null)).toBeNull();
  });

  it("writes every yard name in one format", () => {
    expect(yardLabel("copart", "CA - SACRAMENTO")).toBe("Copart Sacramento");
    expect(yardLabel("copart", "FL - MIAMI NORTH")).toBe("Copart Miami North");
    expect(yardLabel("copart", "Copart Dallas")).toBe("Copart Dallas");
    expect(yardLabel("iaai", "Seattle")).toBe("IAAI Seattle");
    expect(yardLabel("iaai", "Miami-North")).toBe("IAAI Miami-North");
    expect(yardLabel("copart", null)).toBeNull();
  });
});
