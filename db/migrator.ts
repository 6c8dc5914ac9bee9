import path from "node:path";
import { fileURLToPath } from "node:url";
import type { QueryInterface, Sequelize } from "sequelize";
import { SequelizeStorage, Umzug } from "umzug";

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
