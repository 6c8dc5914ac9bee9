// npm run db:migrate [up|down|status] [--to NAME|0]
// up: the pending migrations, then the changed function files of db/functions (record 3601).
// Not app/models/db.server: loading it reads the whole app environment, and production's refuses
// to load without every secret. The release command needs only DATABASE_URL (record 3104).
import { connectSequelize } from "../app/models/sequelize.server";
import { applyFunctionFiles, readFunctionFiles } from "./function-files";
import { ensureDatabaseUrl } from "./local";
import { migrateUp, migrator } from "./migrator";

async function main() {
  const [command = "up", ...rest] = process.argv.slice(2);
  const toIndex = rest.indexOf("--to");
  const to = toIndex >= 0 ? rest[toIndex + 1] : undefined;
  const url = await ensureDatabaseUrl();
  const sequelize = connectSequelize(url, 2);
  const umzug = migrator(sequelize, console);
  try {
    if (command === "up") {
      const done = await migrateUp(sequelize, { logger: console, to });
      console.log(
        done.migrations.length
          ? `Applied ${done.migrations.length} migration(s).`
          : "Already up to date.",
      );
      if (to) console.log("Function files not applied (a partial up): run up without --to.");
      else if (done.functions.length)
        console.log(`Applied function file(s): ${done.functions.join(", ")}.`);
      else console.log("Function files up to date.");
    } else if (command === "down") {
      // the function files are not undone: they are the code's, applied again by the next up
      const done = await umzug.down(to === "0" ? { to: 0 } : to ? { to } : {});
      console.log(`Reverted ${done.length} migration(s).`);
    } else if (command === "status") {
      const executed = await umzug.executed();
      const pending = await umzug.pending();
      for (const m of executed) console.log(`  up      ${m.name}`);
      for (const m of pending) console.log(`  pending ${m.name}`);
      const changed = await applyFunctionFiles(sequelize, { dryRun: true });
      for (const file of await readFunctionFiles())
        console.log(
          `  ${changed.includes(file.name) ? "pending" : "up     "} db/functions/${file.name}`,
        );
    } else {
      throw new Error(`Unknown command "${command}". Use up, down or status.`);
    }
  } finally {
    await sequelize.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
