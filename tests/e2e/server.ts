// The e2e app: the production build on its own throwaway database, with the local services.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { startLocalServices } from "../../scripts/local-services";
import { startApp } from "../support/app-process";
import { startThrowawayCluster } from "../support/cluster";
import { createDatabase } from "../support/databases";
import { E2E_SESSION_SECRET, e2eStateFile } from "./state";

const port = Number(process.env.E2E_PORT ?? 3100);

async function main() {
  const cluster = await startThrowawayCluster("e2e");
  await createDatabase(cluster.urlFor("postgres"), "bidyard_e2e");
  const databaseUrl = cluster.urlFor("bidyard_e2e");
  process.env.DATABASE_URL = databaseUrl;

  const { migrateDatabase } = await import("../support/databases");
  await migrateDatabase(databaseUrl);
  const { runSeeds } = await import("../../db/seeds/index");
  await runSeeds([], () => undefined);
  const { sequelize } = await import("../../app/models/db.server");
  await sequelize.close();

  fs.mkdirSync(".data", { recursive: true });
  fs.writeFileSync(e2eStateFile(port), JSON.stringify({ databaseUrl, dataDir: cluster.dataDir }));

  // The issuer on a free port, so several e2e runs can share the machine.
  const services = await startLocalServices({
    appUrl: `http://localhost:${port}`,
    oidcPort: 0,
    mailCatcherPort: 0,
  });
  // The mail catcher's page, for specs that read what the app sent.
  fs.writeFileSync(
    e2eStateFile(port),
    JSON.stringify({
      databaseUrl,
      dataDir: cluster.dataDir,
      mailCatcherUrl: services.env.MAIL_CATCHER_URL,
    }),
  );
  const app = startApp(
    {
      ...services.env,
      NODE_ENV: "test",
      SESSION_SECRET: E2E_SESSION_SECRET,
      DATABASE_URL: databaseUrl,
      APP_URL: `http://localhost:${port}`,
      // Tests give each browser its own address the way Fly's proxy does (Fly-Client-IP).
      TRUST_PROXY: "fly",
      ...(process.env.E2E_APP_ENV ? JSON.parse(process.env.E2E_APP_ENV) : {}),
    },
    port,
  );
  app.proc.stdout!.pipe(process.stdout);
  app.proc.stderr!.pipe(process.stderr);
  // One job worker beside it, as production runs (docs/decisions/3561): it closes the lots and
  // sends the mail.
  const worker = spawn("node", ["build/server/jobs.js"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...services.env,
      NODE_ENV: "test",
      SESSION_SECRET: E2E_SESSION_SECRET,
      DATABASE_URL: databaseUrl,
      APP_URL: `http://localhost:${port}`,
      ...(process.env.E2E_APP_ENV ? JSON.parse(process.env.E2E_APP_ENV) : {}),
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const stopWorker = () =>
    new Promise<void>((resolve) => {
      if (worker.exitCode !== null || worker.signalCode !== null) return resolve();
      worker.once("exit", () => resolve());
      worker.kill("SIGTERM");
    });

  // Whatever ends the run (Playwright's SIGTERM, Ctrl-C, the app dying), the cluster goes too:
  // it runs detached, so nothing else would stop it.
  let cleaning: Promise<void> | undefined;
  const cleanup = (code: number) => {
    cleaning ??= (async () => {
      await Promise.all([app.stop(), stopWorker()]);
      await services.stop();
      await cluster.remove();
      process.exit(code);
    })();
    return cleaning;
  };
  process.on("SIGTERM", () => cleanup(0));
  process.on("SIGINT", () => cleanup(0));
  app.proc.on("exit", (code) => cleanup(code ?? 1));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
