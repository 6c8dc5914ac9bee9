// npm run dev: the whole product on http://localhost:3000 with nothing to install or configure.
// Starts the local PostgreSQL (unless DATABASE_URL is set), migrates, seeds the demo data, starts
// the local services, then Remix's dev server.
import { spawn } from "node:child_process";
import { ensureDatabaseUrl } from "../db/local";
import { startLocalServices } from "./local-services";

async function main() {
  const databaseUrl = await ensureDatabaseUrl();
  const child = (command: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(command, args, {
        stdio: "inherit",
        env: { ...process.env, DATABASE_URL: databaseUrl },
      });
      proc.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed`)),
      );
    });
  await child("npx", ["tsx", "db/migrate.ts", "up"]);
  await child("npx", ["tsx", "db/seed.ts"]);
  const services = await startLocalServices();

  // Remix's dev server rebuilds and restarts the app server it is given: ours (server/), so
  // development runs the production server's code, with its log lines made readable
  // (server/log.ts: pino-pretty under NODE_ENV=development).
  const remix = spawn("npx", ["remix", "dev", "-c", "node server/index.ts"], {
    stdio: "inherit",
    env: { ...process.env, ...services.env, DATABASE_URL: databaseUrl, NODE_ENV: "development" },
  });
  const stop = async () => {
    remix.kill("SIGTERM");
    await services.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  remix.on("exit", async (code) => {
    await services.stop();
    process.exit(code ?? 0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
