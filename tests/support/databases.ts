import pg from "pg";
import { waitFor } from "./wait";

export function databaseUrl(adminUrl: string, database: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(adminUrl: string, name: string, template?: string) {
  await withAdmin(adminUrl, async (client) => {
    const from = template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : "";
    // Two workers cloning the template at the same instant can collide; try again briefly, each
    // at its own pace so that they fall out of step.
    let last = "";
    await waitFor(
      async () => {
        try {
          await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}${from}`);
          return true;
        } catch (error) {
          last = String((error as Error).message);
          if (!last.includes("being accessed by other users")) throw error;
          return false;
        }
      },
      {
        what: `CREATE DATABASE ${name}`,
        timeout: 10_000,
        every: 50 + Math.random() * 100,
        detail: () => last,
      },
    );
  });
}

export async function dropDatabase(adminUrl: string, name: string) {
  await withAdmin(adminUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
  );
}

// The migrations and the function files (db/migrator.ts). Imported lazily: loading the app's db module binds its pool to DATABASE_URL at that moment.
export async function migrateDatabase(url: string) {
  const { createSequelize } = await import("../../app/models/db.server");
  const { migrateUp } = await import("../../db/migrator");
  const sequelize = createSequelize(url, 2);
  try {
    await migrateUp(sequelize);
  } finally {
    await sequelize.close();
  }
}
