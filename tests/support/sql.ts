// Reading and poking the test file's database directly.
import { QueryTypes } from "sequelize";
import { expect } from "vitest";
import { sequelize } from "~/models/db.server";

/** The number a `select count(*) n …` query answers. */
export async function count(sql: string, bind?: unknown[]) {
  const [row] = await sequelize.query<{ n: string }>(sql, { bind, type: QueryTypes.SELECT });
  return Number(row.n);
}

/** Expects the database to refuse the statement (a constraint, a trigger, a type). */
export async function rejects(sql: string, bind?: unknown[]) {
  await expect(sequelize.query(sql, { bind })).rejects.toThrow();
}
