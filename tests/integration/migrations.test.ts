import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createSequelize } from "~/models/db.server";
import { migrateUp, migrator } from "../../db/migrator";
import { createDatabase, databaseUrl, dropDatabase } from "../support/databases";

const adminUrl = process.env.TEST_ADMIN_DATABASE_URL!;
const name = `bidyard_migrations_${randomBytes(4).toString("hex")}`;

async function tables(sequelize: ReturnType<typeof createSequelize>) {
  const [rows] = await sequelize.query(
    "select table_name from information_schema.tables where table_schema = 'public' order by 1",
  );
  return (rows as Array<{ table_name: string }>).map((row) => row.table_name);
}

describe("migrations", () => {
  afterAll(() => dropDatabase(adminUrl, name));

  it("go up from empty, down to zero and up again", async () => {
    await createDatabase(adminUrl, name);
    const sequelize = createSequelize(databaseUrl(adminUrl, name), 2);
    try {
      const umzug = migrator(sequelize);
      const first = await migrateUp(sequelize);
      const applied = await umzug.executed();
      expect(first.migrations).toEqual(applied.map((m) => m.name));
      expect(applied.length).toBeGreaterThan(0);
      // from empty, every function file (db/functions) after the migrations
      expect(first.functions).toEqual(expect.arrayContaining(["020-place-bid.sql"]));
      expect(await tables(sequelize)).toEqual(
        expect.arrayContaining(["users", "sessions", "prelaunch_signups", "schema_migrations"]),
      );

      await umzug.down({ to: 0 });
      expect(await umzug.executed()).toEqual([]);
      // the function files' record is the step's own table, not a migration's
      expect(await tables(sequelize)).toEqual(["db_functions", "schema_migrations"]);

      const again = await migrateUp(sequelize);
      expect(again.migrations).toEqual(applied.map((m) => m.name));
      expect(await umzug.pending()).toEqual([]);
      // the migrations' frozen copies made again what the files had made, and no migration drops
      // the bid's functions any more: every file's digest matches, nothing is applied again (a
      // file whose objects differ is: tests/integration/db-functions.test.ts)
      expect(again.functions).toEqual([]);
    } finally {
      await sequelize.close();
    }
  });
});
