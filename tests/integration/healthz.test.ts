import { describe, expect, it, vi } from "vitest";

// the loader as Remix calls it (its guard reads the request)
const HEALTH = { request: new Request("http://localhost/healthz"), params: {}, context: {} };

describe("/healthz", () => {
  it("answers 200 when the database answers", async () => {
    const { loader } = await import("~/routes/healthz");
    const response = await loader(HEALTH);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("OK");
  });

  it("answers 503 when the database is down", async () => {
    vi.resetModules();
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgres://postgres:postgres@127.0.0.1:9/nowhere";
    const previous = globalThis.__bidyardSequelize;
    globalThis.__bidyardSequelize = undefined;
    try {
      const { resetEnvForTests } = await import("~/platform/env.server");
      resetEnvForTests();
      const { loader } = await import("~/routes/healthz");
      // its guard reads the settings first: the outage's 503, thrown (Remix answers it the same)
      const response = (await loader(HEALTH).catch((thrown: unknown) => thrown)) as Response;
      expect(response.status).toBe(503);
      await (globalThis.__bidyardSequelize as { close(): Promise<void> } | undefined)?.close();
    } finally {
      process.env.DATABASE_URL = saved;
      globalThis.__bidyardSequelize = previous;
    }
  });
});
