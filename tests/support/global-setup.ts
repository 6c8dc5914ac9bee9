// Once per `vitest run`: a throwaway cluster with a migrated template database. Each test file
// then gets its own database cloned from the template (tests/support/setup-db.ts).
import type { TestProject } from "vitest/node";
import { startThrowawayCluster } from "./cluster";
import { createDatabase, databaseUrl, migrateDatabase } from "./databases";

export const TEMPLATE_DATABASE = "bidyard_template";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDatabase: string;
  }
}

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  const cluster = external ? null : await startThrowawayCluster("vitest");
  const adminUrl = external ?? cluster!.urlFor("postgres");
  const templateUrl = databaseUrl(adminUrl, TEMPLATE_DATABASE);
  const { dropDatabase } = await import("./databases");
  await dropDatabase(adminUrl, TEMPLATE_DATABASE);
  await createDatabase(adminUrl, TEMPLATE_DATABASE);
  await migrateDatabase(templateUrl);
  project.provide("pgAdminUrl", adminUrl);
  project.provide("templateDatabase", TEMPLATE_DATABASE);
  return async () => {
    await cluster?.remove();
  };
}
