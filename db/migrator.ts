import path from "node:path";
import { fileURLToPath } from "node:url";
import type { QueryInterface, Sequelize } from "sequelize";
import { SequelizeStorage, Umzug } from "umzug";
import { applyFunctionFiles } from "./function-files";

const here = path.dirname(fileURLToPath(import.meta.url));

export type Migration = (params: { context: QueryInterface }) => Promise<unknown>;

export function migrator(sequelize: Sequelize, logger: Console | undefined = undefined) {
  return new Umzug({
    migrations: {
      glob: ["migrations/*.ts", { cwd: here }],
      resolve: ({ name, path: file, context }) => ({
        name: name.replace(/\.ts$/, ""),
        up: async () => (await import(file!)).up({ context }),
        down: async () => (await import(file!)).down({ context }),
      }),
    },
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: "schema_migrations" }),
    logger,
  });
}

/** Two keys (like take_stream_lease's 3001): this record's number, then what is locked. */
const MIGRATIONS_LOCK = "SELECT pg_advisory_xact_lock(3601, 1)";

/**
 * What every caller that brings a database up to date runs (db/migrate.ts up, so the release
 * command, `npm run dev` and preview; the test and bench databases): the pending migrations, then
 * the function files of db/functions (db/function-files.ts, docs/decisions/3601). One process at a
 * time: a transaction takes the migrations' advisory lock first and applies the function files
 * last, so a second process waits, then finds nothing to do. The migrations run on the pool's other
 * connections (each as before), so the pool needs two. With `to` (a partial up) the function files
 * are left alone: they are written for the schema of the last migration.
 */
export async function migrateUp(
  sequelize: Sequelize,
  options: { logger?: Console; to?: string; functionsDir?: string } = {},
) {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query(MIGRATIONS_LOCK, { transaction });
    const migrations = await migrator(sequelize, options.logger).up(
      options.to ? { to: options.to } : {},
    );
    const functions = options.to
      ? []
      : await applyFunctionFiles(sequelize, { transaction, dir: options.functionsDir });
    return { migrations: migrations.map((m) => m.name), functions };
  });
}
