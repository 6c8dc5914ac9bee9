// Arranges community listings for integration tests.
import { Listing } from "~/models/listing.server";
import type { User } from "~/models/user.server";

export async function createTestListing(
  seller: User,
  overrides: Partial<Parameters<typeof Listing.create>[0]> = {},
) {
  return Listing.create({
    userId: seller.id,
    title: "Clean daily driver",
    description: "",
    make: "Toyota",
    model: "Corolla",
    year: 2018,
    mileage: 60000,
    price: "12000.00",
    currency: "USD",
    condition: "good",
    fuelType: "gasoline",
    transmission: "automatic",
    drivetrain: null,
    exteriorColor: null,
    interiorColor: null,
    bodyType: "sedan",
    country: "US",
    state: "TX",
    city: "Austin",
    zipCode: null,
    soldAt: null,
    deletedAt: null,
    ...overrides,
  });
}
