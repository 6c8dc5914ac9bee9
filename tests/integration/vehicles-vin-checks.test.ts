import fs from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { Listing } from "~/models/listing.server";
import { importCopartCsv } from "~/services/auctions/import.server";
import { action as apiVehiclesAction } from "~/routes/api.vehicles";
import { action as postVehicleAction } from "~/routes/post-vehicle";
import { loader as vinLoader } from "~/routes/api.vin.$vin";
import { loader as vehicleLoader } from "~/routes/vehicle.$id/route";
import { createTestUser, requestAs } from "../support/auth";
import {
  ACCORD_2019,
  ACCORD_FORM,
  MISTYPED,
  RAV4_2019,
  type ListingReply,
} from "../support/vin-forms";

const context = {};

describe("a VIN checked on posting", () => {
  it("accepts a VIN that decodes to the stated vehicle and shows its decoded facts", async () => {
    const user = await createTestUser();
    const response = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", {
        form: { ...ACCORD_FORM, vin: "1hgcv1f33ka-123456" },
      }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(302);
    const id = response.headers.get("location")!.split("/").pop()!;
    expect((await Listing.findByPk(id))?.vin).toBe(ACCORD_2019);
    const { data: page } = (await vehicleLoader({
      request: await requestAs(null, `/vehicle/${id}`),
      params: { id },
      context,
    })) as unknown as {
      data: { vin: { decoded: { make: string; model: string; modelYear: number }; warning: null } };
    };
    expect(page.vin.decoded).toMatchObject({ make: "Honda", model: "Accord", modelYear: 2019 });
    expect(page.vin.warning).toBeNull();
  });

  it("refuses a VIN that decodes to another model, saying what it decodes to, and writes nothing", async () => {
    const user = await createTestUser();
    const result = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", { form: { ...ACCORD_FORM, vin: RAV4_2019 } }),
      params: {},
      context,
    })) as unknown as ListingReply;
    expect(result.init.status).toBe(400);
    expect(result.data.error.vin[0]).toContain("decodes to make Toyota");
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);

    const wrongYear = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", { form: { ...ACCORD_FORM, year: "2018" } }),
      params: {},
      context,
    })) as unknown as ListingReply;
    expect(wrongYear.init.status).toBe(400);
    expect(wrongYear.data.error.vin[0]).toContain("year 2019");
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses a mistyped VIN (check digit) on the form and on the JSON call", async () => {
    const user = await createTestUser();
    const result = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", { form: { ...ACCORD_FORM, vin: MISTYPED } }),
      params: {},
      context,
    })) as unknown as ListingReply;
    expect(result.init.status).toBe(400);
    expect(result.data.error.vin[0]).toContain("check digit");
    const json = (await apiVehiclesAction({
      request: await requestAs(user, "/api/vehicles", { json: { ...ACCORD_FORM, vin: MISTYPED } }),
      params: {},
      context,
    })) as Response;
    expect(json.status).toBe(400);
    expect(JSON.stringify(await json.json())).toContain("check digit");
    expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("a VIN checked on import", () => {
  it("imports the rows but lists each VIN that disagrees or fails its check digit", async () => {
    const [header, first] = fs
      .readFileSync("tests/fixtures/copart-sales-sample.csv", "utf8")
      .split("\n");
    const columns = header.split('","');
    const at = (name: string) => columns.findIndex((c) => c.replace(/"/g, "") === name);
    const row = (lot: string, year: string, make: string, model: string, vin: string) => {
      const cells = first.split('","');
      const set = (name: string, value: string) => {
        const i = at(name);
        const quoteStart = i === 0 ? '"' : "";
        const quoteEnd = i === cells.length - 1 ? '"' : "";
        cells[i] = `${quoteStart}${value}${quoteEnd}`;
      };
      set("Lot number", lot);
      set("Year", year);
      set("Make", make);
      set("Model Group", model);
      set("VIN", vin);
      return cells.join('","');
    };
    const csv = [
      header,
      row("81000001", "2019", "HONDA", "ACCORD", ACCORD_2019),
      row("81000002", "2019", "HONDA", "ACCORD", RAV4_2019),
      row("81000003", "2019", "HONDA", "ACCORD", MISTYPED),
      row("81000004", "2017", "HONDA", "ACCORD", ACCORD_2019),
    ].join("\n");
    const report = await importCopartCsv(Readable.from([csv]));
    expect(report).toMatchObject({ rows: 4, inserted: 4, skipped: [] });
    expect(report.vinFlags.map((f) => [f.lotNumber, f.vin])).toEqual([
      ["81000002", RAV4_2019],
      ["81000003", MISTYPED],
      ["81000004", ACCORD_2019],
    ]);
    expect(report.vinFlags[0].reason).toContain("make Toyota");
    expect(report.vinFlags[1].reason).toContain("check digit");
    expect(report.vinFlags[2].reason).toContain("year 2019");
  });
});

describe("posting fills body type and fuel from the VIN", () => {
  const RAV4_FORM = {
    ...ACCORD_FORM,
    title: "2019 Toyota RAV4 LE",
    make: "Toyota",
    model: "RAV4",
    vin: RAV4_2019,
  };

  it("a listing posted without them gets the VIN's (no JavaScript needed)", async () => {
    const user = await createTestUser();
    const response = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", { form: RAV4_FORM }),
      params: {},
      context,
    })) as Response;
    expect(response.status).toBe(302);
    const id = response.headers.get("location")!.split("/").pop()!;
    expect(await Listing.findByPk(id)).toMatchObject({ bodyType: "suv", fuelType: "gasoline" });
  });

  it("what the seller chose stays; the JSON call fills the same", async () => {
    const user = await createTestUser();
    const chosen = (await postVehicleAction({
      request: await requestAs(user, "/post-vehicle", {
        form: { ...RAV4_FORM, bodyType: "hatchback", fuelType: "hybrid" },
      }),
      params: {},
      context,
    })) as Response;
    const id = chosen.headers.get("location")!.split("/").pop()!;
    expect(await Listing.findByPk(id)).toMatchObject({ bodyType: "hatchback", fuelType: "hybrid" });

    const { vin: _vin, ...rest } = RAV4_FORM;
    const api = (await apiVehiclesAction({
      request: await requestAs(user, "/api/vehicles", {
        json: { ...rest, year: 2019, price: "17500", vin: RAV4_2019 },
      }),
      params: {},
      context,
    })) as Response;
    expect(api.status).toBe(201);
    const created = (await api.json()) as { id: string };
    expect(await Listing.findByPk(created.id)).toMatchObject({
      bodyType: "suv",
      fuelType: "gasoline",
    });
  });

  it("GET /api/vin/:vin answers what the form may fill in, and 400 for a VIN that cannot be one", async () => {
    const user = await createTestUser();
    const facts = (await vinLoader({
      request: await requestAs(user, `/api/vin/${RAV4_2019.toLowerCase()}`),
      params: { vin: RAV4_2019.toLowerCase() },
      context,
    })) as Response;
    expect(facts.status).toBe(200);
    expect(await facts.json()).toEqual({
      vin: RAV4_2019,
      decoded: true,
      year: 2019,
      make: "Toyota",
      model: "RAV4",
      bodyType: "suv",
      fuelType: "gasoline",
    });
    const bad = (await vinLoader({
      request: await requestAs(user, `/api/vin/${MISTYPED}`),
      params: { vin: MISTYPED },
      context,
    })) as Response;
    expect(bad.status).toBe(400);
  });
});
