// Posting a listing while the VIN decoder cannot start (record 2101): the listing is posted
// without the make and model check, and the checks that need no decoder still apply. This file
// runs in its own module context, so its decoder is the broken one set up here.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Listing } from "~/models/listing.server";
import { resetEnvForTests } from "~/platform/env.server";
import { action as postVehicleAction } from "~/routes/post-vehicle";
import { createTestUser, requestAs } from "../support/auth";
import {
  ACCORD_2019,
  ACCORD_FORM,
  MISTYPED,
  RAV4_2019,
  type ListingReply,
} from "../support/vin-forms";

const saved = process.env.VPIC_DB_PATH;
let dir = "";
beforeAll(() => {
  // The database path lies under a plain file: the decoder cannot unpack its data there.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bidyard-vpic-"));
  fs.writeFileSync(path.join(dir, "not-a-directory"), "");
  process.env.VPIC_DB_PATH = path.join(dir, "not-a-directory", "vpic.lite.db");
  resetEnvForTests();
});
afterAll(() => {
  if (saved === undefined) delete process.env.VPIC_DB_PATH;
  else process.env.VPIC_DB_PATH = saved;
  resetEnvForTests();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function post(user: Awaited<ReturnType<typeof createTestUser>>, form: typeof ACCORD_FORM) {
  return postVehicleAction({
    request: await requestAs(user, "/post-vehicle", { form }),
    params: {},
    context: {},
  });
}

describe("posting a listing while the VIN decoder is down", () => {
  it("posts it without the make and model check, and logs why", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const user = await createTestUser();
      const response = (await post(user, ACCORD_FORM)) as Response;
      expect(response.status).toBe(302);
      // The RAV4's VIN would be refused with a decoder; without one its make cannot be checked.
      const other = (await post(user, { ...ACCORD_FORM, vin: RAV4_2019 })) as Response;
      expect(other.status).toBe(302);
      expect(
        (await Listing.findAll({ where: { userId: user.id } })).map((l) => l.vin).sort(),
      ).toEqual([ACCORD_2019, RAV4_2019].sort());
      expect(
        logged.mock.calls.some((call) => String(call[0]).includes("VIN decoding failed")),
      ).toBe(true);
    } finally {
      logged.mockRestore();
    }
  });

  it("still refuses what needs no decoder: the check digit and the model year", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const user = await createTestUser();
      const mistyped = (await post(user, {
        ...ACCORD_FORM,
        vin: MISTYPED,
      })) as unknown as ListingReply;
      expect(mistyped.init.status).toBe(400);
      expect(mistyped.data.error.vin[0]).toContain("check digit");
      const wrongYear = (await post(user, {
        ...ACCORD_FORM,
        year: "2018",
      })) as unknown as ListingReply;
      expect(wrongYear.init.status).toBe(400);
      expect(wrongYear.data.error.vin[0]).toContain("year 2019");
      expect(await Listing.count({ where: { userId: user.id } })).toBe(0);
    } finally {
      logged.mockRestore();
    }
  });
});
