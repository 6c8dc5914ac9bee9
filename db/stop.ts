// npm run db:stop: stops the local PostgreSQL that `npm run dev` leaves running in .data/.
import { stopLocalDatabase } from "./local";

await stopLocalDatabase();
console.log("Local PostgreSQL stopped.");
