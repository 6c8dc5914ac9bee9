import { describe, expect, it } from "vitest";
import { ordersAvailableLabel, vehicleTypeLabel } from "~/services/affiliates/rules";
import { VEHICLE_TYPE_OPTIONS } from "~/services/affiliates/schemas";

describe("affiliate wording", () => {
  it("counts orders in the right number", () => {
    expect(ordersAvailableLabel(0)).toBe("0 orders available");
    expect(ordersAvailableLabel(1)).toBe("1 order available");
    expect(ordersAvailableLabel(2)).toBe("2 orders available");
  });

  it("labels every vehicle type the same way everywhere", () => {
    expect(VEHICLE_TYPE_OPTIONS.map(vehicleTypeLabel)).toEqual(["Sedan", "SUV", "Truck"]);
  });
});
