// npm run db:stop: stops the local PostgreSQL in .data/ that the scripts (db:migrate, db:seed,
// import:lots, preview) leave running; `npm run dev` stops its own (docs/decisions/3106).
import { stopLocalDatabase } from "./local";

await stopLocalDatabase();
console.log("Local PostgreSQL stopped.");
