// A throwaway PostgreSQL cluster for a test run: its own data directory and port.
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startLocalCluster, type LocalCluster } from "../../db/postgres";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Durability is not what the tests check; speed is welcome. */
export const FAST_TUNING = ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"];

export async function startThrowawayCluster(
  name: string,
  tuning: string[] = FAST_TUNING,
): Promise<LocalCluster & { remove(): Promise<void> }> {
  const dataDir = path.join(os.tmpdir(), `bidyard-${name}-${process.pid}`);
  await fs.rm(dataDir, { recursive: true, force: true });
  const cluster = await startLocalCluster({
    dataDir,
    port: await freePort(),
    tuning,
  });
  return {
    ...cluster,
    remove: async () => {
      await cluster.stop();
      await fs.rm(cluster.dataDir, { recursive: true, force: true });
    },
  };
}
