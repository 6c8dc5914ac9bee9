import pg from "pg";
import { Sequelize } from "sequelize";

/**
 * A Sequelize for one database URL, with the app's connection settings. Reads no other setting:
 * the release command (`npm run db:migrate -- up`) connects through it with only DATABASE_URL set
 * (docs/decisions/3104-the-image-built-and-checked-in-ci.md).
 */
export function connectSequelize(url: string, poolMax: number) {
  return new Sequelize(url, {
    dialect: "postgres",
    dialectModule: pg,
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000, acquire: 10_000, evict: 5_000 },
    dialectOptions: { connectionTimeoutMillis: 3_000, statement_timeout: 15_000 },
    define: { underscored: true, timestamps: true },
  });
}
