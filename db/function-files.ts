// The database's functions and triggers live in db/functions/*.sql, one file each, applied after the
// migrations by applyFunctionFiles (docs/decisions/3601; how to write one: db/functions/README.md).
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { QueryTypes, type Sequelize, type Transaction } from "sequelize";

export const FUNCTIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "functions");

export type FunctionFile = {
  /** the file's name, e.g. 020-place-bid.sql: its place in the order and its key in db_functions */
  name: string;
  sql: string;
  checksum: string;
  /** the functions and triggers the file creates, by name (found in its CREATE statements) */
  functions: string[];
  triggers: string[];
};

/** The directory's .sql files in the order they are applied: by name (numeric prefixes). */
export async function readFunctionFiles(dir = FUNCTIONS_DIR): Promise<FunctionFile[]> {
  const names = (await fs.readdir(dir)).filter((name) => name.endsWith(".sql")).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await fs.readFile(path.join(dir, name), "utf8");
      const code = sql.replace(/--[^\n]*/g, "");
      const named = (pattern: RegExp) => [...code.matchAll(pattern)].map((m) => m[1].toLowerCase());
      return {
        name,
        sql,
        checksum: createHash("sha256").update(sql).digest("hex"),
        functions: named(/create\s+(?:or\s+replace\s+)?function\s+([a-z_][a-z0-9_]*)\s*\(/gi),
        triggers: named(/create\s+(?:or\s+replace\s+)?trigger\s+([a-z_][a-z0-9_]*)\s/gi),
      };
    }),
  );
}

// What the database holds now of a file's functions and triggers, as one digest: a file whose text
// is unchanged is applied again when this differs from the digest taken after its last apply (a
// migration's down and up, a table dropped and made again with its triggers, a hand edit).
const DIGEST = `
  SELECT md5(coalesce(string_agg(d, E'\\n' ORDER BY d), '')) AS digest FROM (
    SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p
     WHERE p.pronamespace = current_schema()::regnamespace AND p.proname = ANY($1)
    UNION ALL
    SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
       AND t.tgname = ANY($2)
  ) defs`;

/**
 * Applies, in `transaction`, each file whose text or database objects changed since it was last
 * applied, in name order, and records its checksum in db_functions; returns the applied files'
 * names. The caller holds the migrations' lock (migrateUp in db/migrator.ts), so two processes
 * starting at once apply nothing twice; a file that fails rolls every file back. With dryRun: the
 * names it would apply, changing nothing (`npm run db:migrate -- status`).
 */
export async function applyFunctionFiles(
  sequelize: Sequelize,
  options: { transaction?: Transaction; dir?: string; dryRun?: boolean } = {},
): Promise<string[]> {
  const { transaction } = options;
  const files = await readFunctionFiles(options.dir ?? FUNCTIONS_DIR);
  if (options.dryRun) {
    const [{ known }] = await sequelize.query<{ known: boolean }>(
      "SELECT to_regclass('db_functions') IS NOT NULL AS known",
      { type: QueryTypes.SELECT, transaction },
    );
    if (!known) return files.map((file) => file.name);
  } else {
    await sequelize.query(
      `CREATE TABLE IF NOT EXISTS db_functions (
         name text PRIMARY KEY,
         checksum text NOT NULL,
         digest text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
      { transaction },
    );
  }
  const stored = new Map(
    (
      await sequelize.query<{ name: string; checksum: string; digest: string }>(
        "SELECT name, checksum, digest FROM db_functions",
        { type: QueryTypes.SELECT, transaction },
      )
    ).map((row) => [row.name, row]),
  );
  const digest = async (file: FunctionFile) => {
    const [row] = await sequelize.query<{ digest: string }>(DIGEST, {
      type: QueryTypes.SELECT,
      bind: [file.functions, file.triggers],
      transaction,
    });
    return row.digest;
  };
  const applied: string[] = [];
  for (const file of files) {
    const last = stored.get(file.name);
    if (last && last.checksum === file.checksum && last.digest === (await digest(file))) continue;
    applied.push(file.name);
    if (options.dryRun) continue;
    await sequelize.query(file.sql, { transaction });
    await sequelize.query(
      `INSERT INTO db_functions (name, checksum, digest) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, digest = EXCLUDED.digest,
         applied_at = now()`,
      { bind: [file.name, file.checksum, await digest(file)], transaction },
    );
  }
  if (options.dryRun) return applied;
  // a file taken away: its row goes (what it made stays until a migration drops it)
  await sequelize.query("DELETE FROM db_functions WHERE NOT (name = ANY($1))", {
    bind: [files.map((file) => file.name)],
    transaction,
  });
  return applied;
}
