import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, databaseUrl, dropDatabase } from "../support/databases";

const run = promisify(execFile);
const adminUrl = process.env.TEST_ADMIN_DATABASE_URL!;
const name = `bidyard_release_${randomBytes(4).toString("hex")}`;

// fly.toml's release_command runs with the app's secrets, but an operator (or CI's image check)
// running it by hand has only the database: it must need nothing else (record 3104).
describe("the release command", () => {
  afterAll(() => dropDatabase(adminUrl, name));

  it("migrates a production database with only DATABASE_URL set", async () => {
    await createDatabase(adminUrl, name);
    const url = databaseUrl(adminUrl, name);
    const { stdout } = await run("npm", ["run", "--silent", "db:migrate", "--", "up"], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "production",
        DATABASE_URL: url,
      },
      timeout: 60_000,
    });
    expect(stdout).toMatch(/Applied \d+ migration\(s\)\./);
    // then the function files (docs/decisions/3601)
    expect(stdout).toMatch(/Applied function file\(s\): .*020-place-bid\.sql/);

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("select count(*)::int as n from schema_migrations");
      expect(rows[0].n).toBeGreaterThan(0);
      const functions = await client.query("select count(*)::int as n from db_functions");
      expect(functions.rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  }, 90_000);
});
