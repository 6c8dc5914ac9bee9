import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createSequelize } from "~/models/db.server";
import { migrator } from "../../db/migrator";
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
      const applied = await umzug.up();
      expect(applied.length).toBeGreaterThan(0);
      expect(await tables(sequelize)).toEqual(
        expect.arrayContaining(["users", "sessions", "prelaunch_signups", "schema_migrations"]),
      );

      await umzug.down({ to: 0 });
      expect(await umzug.executed()).toEqual([]);
      expect(await tables(sequelize)).toEqual(["schema_migrations"]);

      const again = await umzug.up();
      expect(again.map((m) => m.name)).toEqual(applied.map((m) => m.name));
      expect(await umzug.pending()).toEqual([]);
    } finally {
      await sequelize.close();
    }
  });
});
