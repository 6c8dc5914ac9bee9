/** What a VIN says about its vehicle, as decoded from the NHTSA vPIC data. */
export type DecodedVin = {
  vin: string;
  /** false when vPIC does not know the maker (WMI) or no pattern matched */
  decoded: boolean;
  checkDigitValid: boolean;
  modelYear: number | null;
  make: string | null;
  model: string | null;
  series: string | null;
  trim: string | null;
  bodyStyle: string | null;
  driveType: string | null;
  fuelType: string | null;
  doors: string | null;
  engine: { cylinders: string | null; displacementLiters: string | null; model: string | null };
  plant: { city: string | null; country: string | null } | null;
  manufacturer: string | null;
};
