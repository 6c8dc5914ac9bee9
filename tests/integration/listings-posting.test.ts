import { describe, expect, it } from "vitest";
import { Listing } from "~/models/listing.server";
import { action as postVehicleAction, loader as postVehicleLoader } from "~/routes/post-vehicle";
import { action as apiVehiclesAction, loader as apiVehiclesLoader } from "~/routes/api.vehicles";
import { loader as statsLoader } from "~/routes/api.user.vehicle-stats";
import { listingAllowance } from "~/services/listings/allowance.server";
import {
  createListing,
  deleteListing,
  ListingLimitError,
} from "~/services/listings/listings.server";
import { listingSchema } from "~/services/listings/schemas";
import { createTestUser, requestAs } from "../support/auth";
import { createTestListing } from "../support/listings";
import { thrownResponse } from "../support/http";

const FORM = {
  title: "2019 Toyota Camry XLE",
  description: "One owner, service records.",
  make: "Toyota",
  model: "Camry",
  year: "2019",
  mileage: "45,000",
  price: "18500.5",
  currency: "USD",
  condition: "excellent",
  fuelType: "gasoline",
  transmission: "automatic",
  drivetrain: "FWD",
  exteriorColor: "Silver",
  interiorColor: "Black",
  bodyType: "sedan",
  country: "US",
  state: "TX",
  city: "Austin",
  zipCode: "78701",
};

const context = {};
const post = async (
  user: Awaited<ReturnType<typeof createTestUser>> | null,
  form: Record<string, string>,
) =>
  postVehicleAction({
    request: await requestAs(user, "/post-vehicle", { form }),
    params: {},
    context,
  });

function toastOf(response: Response) {
  return response.headers.get("set-cookie") ?? "";
}

describe("posting a vehicle", () => {
  it("creates the listing and goes to its page with its posted message", async () => {
    const user = await createTestUser();
    const response = (await post(user, FORM)) as Response;
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toMatch(/^\/vehicle\/\d+$/);
    expect(toastOf(response)).toContain("__toast=");
    const listing = await Listing.findByPk(location.split("/").pop()!);
    expect(listing).toMatchObject({
      userId: user.id,
      title: FORM.title,
      mileage: 45000,
      price: "18500.50",
      year: 2019,
      condition: "excellent",
      status: "active",
    });
  });

  it("answers 400 with the missing-information message and writes nothing", async () => {
    const user = await createTestUser();
    const { title: _t, city: _c, ...rest } = FORM;
    const result = (await post(user, { ...rest, title: "", city: "  " })) as unknown as {
      data: { error: Record<string, string[]> };
      init: { status: number };
    };
    expect(result.init.status).toBe(400);
    expect(result.data.error[""]).toEqual([
      "Missing Information: Please fill in all required fields.",
    ]);
    expect(result.data.error.title).toEqual(["Title is required"]);
    expect(result.data.error.city).toEqual(["City is required"]);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
  });

  it("checks year, price, and the enums on the server", () => {
    const errors = (form: Record<string, string>) => {
      const result = listingSchema.safeParse({ ...FORM, ...form });
      return result.success ? [] : result.error.issues.map((i) => String(i.path[0]));
    };
    const nextYear = new Date().getUTCFullYear() + 1;
    expect(errors({ year: String(nextYear) })).toEqual([]);
    expect(errors({ year: String(nextYear + 1) })).toEqual(["year"]);
    expect(errors({ year: "1899" })).toEqual(["year"]);
    expect(errors({ price: "0" })).toEqual(["price"]);
    expect(errors({ price: "10.999" })).toEqual(["price"]);
    expect(errors({ price: "-5" })).toEqual(["price"]);
    expect(errors({ currency: "EUR" })).toEqual(["currency"]);
    expect(errors({ condition: "mint" })).toEqual(["condition"]);
    expect(errors({ fuelType: "steam" })).toEqual(["fuelType"]);
    expect(errors({ transmission: "cvt" })).toEqual(["transmission"]);
    expect(errors({ bodyType: "van" })).toEqual(["bodyType"]);
    expect(errors({ country: "FR" })).toEqual(["country"]);
  });

  it("sends a visitor to sign in with the authentication message", async () => {
    const response = await thrownResponse(post(null, FORM));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/api/login?returnTo=%2Fpost-vehicle");
    expect(toastOf(response)).toContain("__toast=");
    const page = await thrownResponse(
      postVehicleLoader({ request: await requestAs(null, "/post-vehicle"), params: {}, context }),
    );
    expect(page.headers.get("location")).toBe("/api/login?returnTo=%2Fpost-vehicle");
  });
});

describe("the free-listing allowance", () => {
  it("refuses a non-member's 4th listing with the message and a redirect to /membership", async () => {
    const user = await createTestUser();
    for (let i = 0; i < 3; i++) {
      const response = (await post(user, FORM)) as Response;
      expect(response.headers.get("location")).toMatch(/^\/vehicle\//);
    }
    const fourth = (await post(user, FORM)) as Response;
    expect(fourth.status).toBe(302);
    expect(fourth.headers.get("location")).toBe("/membership");
    const cookie = toastOf(fourth).split(";")[0].split("=").slice(1).join("=");
    const decoded = Buffer.from(decodeURIComponent(cookie).split(".")[0], "base64").toString();
    expect(decoded).toContain("Posting Limit Reached");
    expect(decoded).toContain(
      "You've used your 3 free listings. Upgrade to a membership to post more vehicles.",
    );
    expect(await Listing.count({ where: { userId: user.id } })).toBe(3);

    const {
      data: { allowance },
    } = await postVehicleLoader({
      request: await requestAs(user, "/post-vehicle"),
      params: {},
      context,
    });
    expect(allowance).toMatchObject({ canPost: false, remainingFreeListings: 0 });
  });

  it("does not give a listing back when one is deleted", async () => {
    const user = await createTestUser();
    const first = await createListing(user.id, listingSchema.parse(FORM));
    await createListing(user.id, listingSchema.parse(FORM));
    await createListing(user.id, listingSchema.parse(FORM));
    await deleteListing(user.id, first);
    const allowance = await listingAllowance(user.id);
    expect(allowance).toMatchObject({
      activeListings: 2,
      totalListings: 3,
      remainingFreeListings: 0,
      canPost: false,
    });
    await expect(createListing(user.id, listingSchema.parse(FORM))).rejects.toBeInstanceOf(
      ListingLimitError,
    );
  });

  it("creates exactly 2 of 10 parallel posts when 2 free listings are left", async () => {
    const user = await createTestUser();
    await createTestListing(user);
    const input = listingSchema.parse(FORM);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => createListing(user.id, input)),
    );
    const created = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter(
      (r) => r.status === "rejected" && r.reason instanceof ListingLimitError,
    );
    expect(created).toHaveLength(2);
    expect(refused).toHaveLength(8);
    expect(await Listing.count({ where: { userId: user.id } })).toBe(3);
  });
});

describe("the listing calls", () => {
  it("POST /api/vehicles returns the new id, and GET /api/user/vehicle-stats counts it", async () => {
    const user = await createTestUser();
    const json = {
      ...FORM,
      year: 2019,
      mileage: null,
      price: "18500.00",
      userId: "someone-else",
    };
    const response = (await apiVehiclesAction({
      request: await requestAs(user, "/api/vehicles", { json }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect((await Listing.findByPk(id))?.userId).toBe(user.id);

    const stats = (await statsLoader({
      request: await requestAs(user, "/api/user/vehicle-stats"),
      params: {},
      context,
    })) as Response;
    expect(await stats.json()).toEqual({
      activeListings: 1,
      totalListings: 1,
      remainingFreeListings: 2,
    });
  });

  it("POST /api/vehicles answers 400, 401 and 403 plainly", async () => {
    const user = await createTestUser();
    const missing = (await apiVehiclesAction({
      request: await requestAs(user, "/api/vehicles", { json: { title: "x" } }),
      params: {},
      context,
    })) as Response;
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe(
      "Missing Information: Please fill in all required fields.",
    );
    const visitor = await thrownResponse(
      apiVehiclesAction({
        request: await requestAs(null, "/api/vehicles", { json: FORM }),
        params: {},
        context,
      }),
    );
    expect(visitor.status).toBe(401);
    for (let i = 0; i < 3; i++) await createTestListing(user);
    const limited = (await apiVehiclesAction({
      request: await requestAs(user, "/api/vehicles", { json: FORM }),
      params: {},
      context,
    })) as Response;
    expect(limited.status).toBe(403);
    expect((await limited.json()).message).toContain("Posting Limit Reached");
  });

  it("GET /api/vehicles answers the community query set, publicly", async () => {
    const user = await createTestUser();
    const tag = `qq${Date.now().toString(36)}`;
    await createTestListing(user, { title: `Blue ${tag}`, condition: "excellent" });
    await createTestListing(user, { title: `Red ${tag}`, condition: "poor" });
    const response = (await apiVehiclesLoader({
      request: await requestAs(null, `/api/vehicles?search=${tag}&condition=excellent&make=`),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(200);
    expect(response.headers.get("x-total-count")).toBe("1");
    const list = await response.json();
    expect(list.map((l: { title: string }) => l.title)).toEqual([`Blue ${tag}`]);
    // Sellers are named by a public handle, never by their internal user id.
    expect(list[0]).not.toHaveProperty("userId");
    expect(list[0].seller).toMatch(/^seller-[0-9a-f]{12}$/);
    expect(JSON.stringify(list[0])).not.toContain(user.id);
    expect(list[0]).toMatchObject({
      description: "",
      make: "Toyota",
      year: 2018,
      mileage: 60000,
      price: "12000.00",
      currency: "USD",
      condition: "excellent",
      bodyType: "sedan",
      country: "US",
      images: [],
      featured: false,
    });
    const bad = (await apiVehiclesLoader({
      request: await requestAs(null, "/api/vehicles?yearMin=soon"),
      params: {},
      context,
    })) as Response;
    expect(bad.status).toBe(400);
  });
});
