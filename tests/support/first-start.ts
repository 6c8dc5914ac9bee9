// What the first `npm run dev` does before anything else, run from the current folder as a
// newcomer's checkout: start the local PostgreSQL in .data/pg and create the app's database.
// Prints where the cluster lives and how to reach it.
import { ensureDatabaseUrl, LOCAL_DATA_DIR } from "../../db/local";
import { resolveDataDir } from "../../db/postgres";

const url = await ensureDatabaseUrl(() => undefined);
console.log(JSON.stringify({ url, dataDir: await resolveDataDir(LOCAL_DATA_DIR) }));
