// npm run db:seed: loads demo data; safe to run again (every seed upserts by a natural key).
import { ensureDatabaseUrl } from "./local";

async function main() {
  await ensureDatabaseUrl();
  const { runSeeds } = await import("./seeds/index");
  const { sequelize } = await import("../app/models/db.server");
  try {
    await runSeeds(process.argv.slice(2));
  } finally {
    await sequelize.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
