// npm run db:seed: loads demo data; safe to run again (every seed upserts by a natural key).
// The demo data includes signed-in-able accounts (admin@bidyard.test is an admin): under
// NODE_ENV=production it refuses unless told `--demo` (docs/decisions/3007).
import { ensureDatabaseUrl } from "./local";

export const PRODUCTION_REFUSAL =
  "db:seed loads the demo accounts (admin@bidyard.test is an admin) and refuses to run under " +
  "NODE_ENV=production. Run `npm run db:seed -- --demo` to load them anyway (a staging or " +
  "preview database).";

async function main() {
  const args = process.argv.slice(2);
  if (process.env.NODE_ENV === "production" && !args.includes("--demo")) {
    console.error(PRODUCTION_REFUSAL);
    process.exit(2);
  }
  await ensureDatabaseUrl();
  const { runSeeds } = await import("./seeds/index");
  const { sequelize } = await import("../app/models/db.server");
  try {
    await runSeeds(args.filter((arg) => arg !== "--demo"));
  } finally {
    await sequelize.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
