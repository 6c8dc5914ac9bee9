// After the e2e run: make sure its throwaway PostgreSQL is gone even if the server was killed
// before it could clean up (the cluster runs detached and would outlive it).
import fs from "node:fs";
import { stopLocalCluster } from "../../db/postgres";
import { e2eStateFile } from "./state";

export default async function teardown() {
  const file = e2eStateFile(Number(process.env.E2E_PORT ?? 3100));
  if (!fs.existsSync(file)) return;
  const { dataDir } = JSON.parse(fs.readFileSync(file, "utf8")) as { dataDir?: string };
  // Playwright runs this before it stops the web server (its teardown comes after this one), so
  // there is no cleanup of the server's to wait for here: the cluster is stopped and removed now.
  if (dataDir && fs.existsSync(dataDir)) {
    await stopLocalCluster(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  fs.rmSync(file, { force: true });
}
