// Before each integration test file: a fresh database cloned from the migrated template.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject } from "vitest";
import { server } from "../mocks/server";
import { createDatabase, databaseUrl } from "./databases";

const adminUrl = inject("pgAdminUrl");
const name = `bidyard_test_${process.pid}_${randomBytes(4).toString("hex")}`;
await createDatabase(adminUrl, name, inject("templateDatabase"));
process.env.DATABASE_URL = databaseUrl(adminUrl, name);
process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
process.env.NODE_ENV = "test";
if (globalThis.__bidyardSequelize)
  throw new Error("the app's pool was created before its database was chosen");
// The app keeps its pool on globalThis; a worker reused for the next file must not inherit it.
globalThis.__bidyardSequelize = undefined;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(async () => {
  server.close();
  await globalThis.__bidyardSequelize?.close().catch(() => undefined);
  globalThis.__bidyardSequelize = undefined;
});
