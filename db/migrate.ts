// npm run db:migrate [up|down|status] [--to NAME|0]
// Not app/models/db.server: loading it reads the whole app environment, and production's refuses
// to load without every secret. The release command needs only DATABASE_URL (record 3104).
import { connectSequelize } from "../app/models/sequelize.server";
import { ensureDatabaseUrl } from "./local";
import { migrator } from "./migrator";

async function main() {
  const [command = "up", ...rest] = process.argv.slice(2);
  const toIndex = rest.indexOf("--to");
  const to = toIndex >= 0 ? rest[toIndex + 1] : undefined;
  const url = await ensureDatabaseUrl();
  const sequelize = connectSequelize(url, 2);
  const umzug = migrator(sequelize, console);
  try {
    if (command === "up") {
      const done = await umzug.up(to ? { to } : {});
      console.log(done.length ? `Applied ${done.length} migration(s).` : "Already up to date.");
    } else if (command === "down") {
      const done = await umzug.down(to === "0" ? { to: 0 } : to ? { to } : {});
      console.log(`Reverted ${done.length} migration(s).`);
    } else if (command === "status") {
      const executed = await umzug.executed();
      const pending = await umzug.pending();
      for (const m of executed) console.log(`  up      ${m.name}`);
      for (const m of pending) console.log(`  pending ${m.name}`);
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
