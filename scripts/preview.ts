// npm run preview: a staging check on one machine (docs/decisions/3007). The production build and
// the production server (server/index.ts under NODE_ENV=production, as the image runs it) with one
// job worker beside it (server/jobs.ts, docs/decisions/3561), with the
// local stand-ins of the outside services: the local PostgreSQL (unless DATABASE_URL is set), the
// local OpenID issuer, the mail catcher and the TEST MODE payment gateway.
//
// PORT (default 3000), LOCAL_PG_PORT, LOCAL_OIDC_PORT, MAIL_CATCHER_PORT and METRICS_PORT as for
// `npm run dev`. `--no-build` serves the build already in build/ (it must be a production one).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { ensureDatabaseUrl } from "../db/local";
import {
  LOCAL_OIDC_CLIENT_ID,
  LOCAL_OIDC_CLIENT_SECRET,
  LOCAL_OIDC_HOST,
} from "../app/services/accounts/local-oidc";
import { startLocalServices } from "./local-services";

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const proc = spawn(command, args, { stdio: "inherit", env });
    proc.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} failed (${code})`)),
    );
  });
}

/** The arguments package.json's start gives node (the primary's heap cap), then the server. */
function startArguments() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } };
  const [command, ...args] = pkg.scripts.start.split(/\s+/);
  if (command !== "node") throw new Error(`npm start must run node, not ${command}`);
  return args;
}

/** The bucket's settings when S3_BUCKET is given, else FILE_STORAGE=local (and UPLOADS_DIR). */
function storageSettings(): Record<string, string> {
  const names = process.env.S3_BUCKET
    ? [
        "FILE_STORAGE",
        "S3_BUCKET",
        "S3_ENDPOINT",
        "S3_REGION",
        "S3_ACCESS_KEY_ID",
        "S3_SECRET_ACCESS_KEY",
      ]
    : ["UPLOADS_DIR"];
  const given = Object.fromEntries(
    names.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
  );
  return process.env.S3_BUCKET ? given : { FILE_STORAGE: "local", ...given };
}

async function main() {
  if (process.env.NODE_ENV === "production") {
    throw new Error("Run npm run preview without NODE_ENV: it starts local stand-ins");
  }
  const port = Number(process.env.PORT ?? 3000);
  const appUrl = `http://localhost:${port}`;
  if (!process.argv.includes("--no-build")) {
    await run("npm", ["run", "build"], { ...process.env, NODE_ENV: "production" });
  }
  const databaseUrl = await ensureDatabaseUrl();
  const scriptEnv = { ...process.env, DATABASE_URL: databaseUrl };
  await run("npx", ["tsx", "db/migrate.ts", "up"], scriptEnv);
  await run("npx", ["tsx", "db/seed.ts", "--demo"], scriptEnv);
  const services = await startLocalServices({ appUrl });

  const serverEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    PORT: String(port),
    APP_URL: appUrl,
    DATABASE_URL: databaseUrl,
    // a fresh secret per run: sessions from an earlier preview are signed out
    SESSION_SECRET: randomBytes(32).toString("hex"),
    // the local issuer, unless OIDC_ISSUER (and its client) were given
    OIDC_ISSUER:
      process.env.OIDC_ISSUER ?? `http://${LOCAL_OIDC_HOST}:${services.env.LOCAL_OIDC_PORT}`,
    OIDC_CLIENT_ID: process.env.OIDC_CLIENT_ID ?? LOCAL_OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET: process.env.OIDC_CLIENT_SECRET ?? LOCAL_OIDC_CLIENT_SECRET,
    ALLOW_TEST_PAYMENTS: "true",
    ...(services.env.SMTP_URL ? { SMTP_URL: services.env.SMTP_URL } : {}),
    ...(process.env.SMTP_URL ? { SMTP_URL: process.env.SMTP_URL } : {}),
    ...(process.env.WEB_CONCURRENCY ? { WEB_CONCURRENCY: process.env.WEB_CONCURRENCY } : {}),
    ...(process.env.METRICS_PORT ? { METRICS_PORT: process.env.METRICS_PORT } : {}),
    // one machine: files in UPLOADS_DIR on its disk, said outright as production must, unless
    // a bucket is given (docs/decisions/3105)
    ...storageSettings(),
    ...(process.env.VPIC_DB_PATH ? { VPIC_DB_PATH: process.env.VPIC_DB_PATH } : {}),
    ...(process.env.LOG_FORMAT ? { LOG_FORMAT: process.env.LOG_FORMAT } : {}),
  };
  const server: ChildProcess = spawn("node", startArguments(), {
    stdio: "inherit",
    env: serverEnv,
  });
  // One job worker beside the web server, as Fly's worker group runs it (docs/decisions/3561);
  // its metrics on JOB_METRICS_PORT when given.
  const { METRICS_PORT: _webMetrics, ...workerEnv } = serverEnv;
  const worker: ChildProcess = spawn("node", ["build/server/jobs.js"], {
    stdio: "inherit",
    env: {
      ...workerEnv,
      ...(process.env.JOB_METRICS_PORT ? { METRICS_PORT: process.env.JOB_METRICS_PORT } : {}),
    },
  });
  console.log(
    `Preview: the production build on ${appUrl} (local sign-in, TEST MODE payments` +
      `${services.env.MAIL_CATCHER_URL ? `, mail at ${services.env.MAIL_CATCHER_URL}` : ""}` +
      `${process.env.METRICS_PORT ? `, metrics on :${process.env.METRICS_PORT}/metrics` : ""})`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null) server.kill("SIGTERM");
    if (worker.exitCode === null) worker.kill("SIGTERM");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const exited = (proc: ChildProcess) =>
    new Promise<number>((resolve) =>
      proc.exitCode !== null || proc.signalCode !== null
        ? resolve(proc.exitCode ?? 0)
        : proc.once("exit", (exitCode) => resolve(exitCode ?? 0)),
    );
  // whichever stops first (or a stop asked for) stops the other
  const code = await Promise.race([exited(server), exited(worker)]);
  const asked = stopping;
  stop();
  await Promise.all([exited(server), exited(worker)]);
  await services.stop();
  process.exit(asked ? 0 : code);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
