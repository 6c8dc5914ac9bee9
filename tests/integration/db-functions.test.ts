// The database's functions and triggers are the files of db/functions, applied after the
// migrations by migrateUp (docs/decisions/3601): a changed file is applied again, an unchanged one
// is not, and a database brought up from empty holds exactly what the files make.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSequelize } from "~/models/db.server";
import { FUNCTIONS_DIR, readFunctionFiles } from "../../db/function-files";
import { migrateUp } from "../../db/migrator";

const url = process.env.DATABASE_URL!;
let dir: string;
let client: pg.Client;

// every function of the schema but an extension's (pg_trgm's), and every trigger not a constraint's
async function definitions() {
  const { rows } = await client.query<{ kind: string; name: string; def: string }>(`
    SELECT 'function' AS kind, p.proname AS name, pg_get_functiondef(p.oid) AS def FROM pg_proc p
     WHERE p.pronamespace = current_schema()::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                         AND d.objid = p.oid AND d.deptype = 'e')
    UNION ALL
    SELECT 'trigger', t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
     ORDER BY 1, 2, 3`);
  return rows;
}

/** migrateUp with the copied files, on a pool of its own (as a release command would have). */
async function up(functionsDir = dir) {
  const sequelize = createSequelize(url, 2);
  try {
    return await migrateUp(sequelize, { functionsDir });
  } finally {
    await sequelize.close();
  }
}

async function edit(name: string, change: (sql: string) => string) {
  const file = path.join(dir, name);
  await fs.writeFile(file, change(await fs.readFile(file, "utf8")));
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-functions-"));
  await fs.cp(FUNCTIONS_DIR, dir, { recursive: true });
  client = new pg.Client({ connectionString: url });
  await client.connect();
});

afterAll(async () => {
  await client.end();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("db/functions", () => {
  it("a migrated database holds exactly what the files make, each file recorded", async () => {
    const files = await readFunctionFiles();
    const held = await definitions();
    expect(held.filter((d) => d.kind === "function").map((d) => d.name)).toEqual(
      files.flatMap((f) => f.functions).sort(),
    );
    expect(held.filter((d) => d.kind === "trigger").map((d) => d.name)).toEqual(
      files.flatMap((f) => f.triggers).sort(),
    );
    const { rows } = await client.query("SELECT name, checksum FROM db_functions ORDER BY name");
    expect(rows).toEqual(files.map((f) => ({ name: f.name, checksum: f.checksum })));

    // every file applied again changes nothing: the database's definitions are the files'
    await client.query("BEGIN");
    try {
      for (const file of files) await client.query(file.sql);
      expect(await definitions()).toEqual(held);
    } finally {
      await client.query("ROLLBACK");
    }
  });

  it("a database migrated before the files existed gets every file, its definitions unchanged", async () => {
    const held = await definitions();
    await client.query("DROP TABLE db_functions");
    const files = (await readFunctionFiles()).map((f) => f.name);
    expect(await up()).toEqual({ migrations: [], functions: files });
    expect(await definitions()).toEqual(held);
  });

  it("applies a changed file again and leaves the unchanged ones", async () => {
    expect((await up()).functions).toEqual([]);

    await edit("020-place-bid.sql", (sql) =>
      sql.replace(
        "#variable_conflict use_column\n",
        "#variable_conflict use_column\n    -- changed by a test\n",
      ),
    );
    expect(await up()).toEqual({ migrations: [], functions: ["020-place-bid.sql"] });
    const { rows } = await client.query("SELECT pg_get_functiondef('place_bid'::regproc) AS def");
    expect(rows[0].def).toContain("-- changed by a test");
    expect((await up()).functions).toEqual([]);

    // a comment above the CREATE is a change of the file too: applied, recorded, nothing else
    await edit("080-take-stream-lease.sql", (sql) => `-- a note\n${sql}`);
    expect((await up()).functions).toEqual(["080-take-stream-lease.sql"]);
    expect((await up()).functions).toEqual([]);
  });

  it("applies a file again when the database lost what it made, and forgets a removed file", async () => {
    await client.query("DROP TRIGGER lots_live_event ON lots");
    expect((await up()).functions).toEqual(["040-lot-event.sql"]);
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM pg_trigger WHERE tgname = 'lots_live_event'",
    );
    expect(rows[0].n).toBe(1);

    await fs.rm(path.join(dir, "080-take-stream-lease.sql"));
    expect((await up()).functions).toEqual([]);
    const left = await client.query("SELECT name FROM db_functions WHERE name LIKE '080-%'");
    expect(left.rows).toEqual([]);
    await fs.cp(
      path.join(FUNCTIONS_DIR, "080-take-stream-lease.sql"),
      path.join(dir, "080-take-stream-lease.sql"),
    );
    expect((await up()).functions).toEqual(["080-take-stream-lease.sql"]);
  });

  it("a file that fails rolls the whole step back", async () => {
    await edit("010-deposit-exposure.sql", (sql) => `${sql}\n-- changed\n`);
    await fs.writeFile(path.join(dir, "015-broken.sql"), "CREATE FUNCTION broken( AS $$ $$;");
    await expect(up()).rejects.toThrow();
    const { rows } = await client.query(
      "SELECT checksum FROM db_functions WHERE name = '010-deposit-exposure.sql'",
    );
    const [original] = (await readFunctionFiles()).filter((f) => f.name.startsWith("010-"));
    expect(rows[0].checksum).toBe(original.checksum);
    await fs.rm(path.join(dir, "015-broken.sql"));
    expect((await up()).functions).toEqual(["010-deposit-exposure.sql"]);
  });

  it("two processes starting at once: the second waits, then applies nothing", async () => {
    await edit("030-place-bid-in-session.sql", (sql) => `-- once\n${sql}`);
    const both = await Promise.all([up(), up()]);
    expect(both.flatMap((r) => r.functions)).toEqual(["030-place-bid-in-session.sql"]);
  });

  it("no migration imports another", async () => {
    const migrations = path.join(path.dirname(FUNCTIONS_DIR), "migrations");
    for (const name of await fs.readdir(migrations)) {
      const text = await fs.readFile(path.join(migrations, name), "utf8");
      expect(text, name).not.toMatch(/from\s+["']\.\/|import\(\s*["']\.\//);
    }
  });
});
