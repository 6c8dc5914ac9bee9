// A staging check on one machine (docs/decisions/3007): `npm run preview` runs the production
// build and server with the local issuer, the mail catcher and the TEST MODE gateway; and the
// demo seed refuses production unless told --demo.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../support/app-process";
import { freePort } from "../support/cluster";
import { waitFor, within } from "../support/wait";

function run(args: string[], env: NodeJS.ProcessEnv) {
  let output = "";
  const proc = spawn(process.execPath, ["--import", "tsx", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (chunk) => (output += chunk));
  proc.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", resolve));
  return { proc, exited, output: () => output };
}

/** The environment without NODE_ENV (vitest sets "test"). */
function plainEnv(extra: Record<string, string>) {
  const { NODE_ENV: _omit, VITEST: _vitest, ...rest } = process.env;
  return { ...rest, ...extra } as NodeJS.ProcessEnv;
}

describe("npm run db:seed", () => {
  it("refuses NODE_ENV=production without --demo, touching nothing", async () => {
    const seed = run(["db/seed.ts"], {
      ...plainEnv({}),
      NODE_ENV: "production",
      // a database nobody could reach: the refusal comes before any connection
      DATABASE_URL: "postgres://nobody:nothing@127.0.0.1:9/none",
    });
    expect(await seed.exited).toBe(2);
    expect(seed.output()).toContain("--demo");
    expect(seed.output()).toContain("refuses to run under NODE_ENV=production");
  });
});

describe("npm run preview", () => {
  let preview: ReturnType<typeof run> & { proc: ChildProcess };
  let port: number;
  let oidcPort: number;
  let mailPort: number;

  beforeAll(async () => {
    await ensureBuilt();
    [port, oidcPort, mailPort] = [await freePort(), await freePort(), await freePort()];
    preview = run(
      ["scripts/preview.ts", "--no-build"],
      plainEnv({
        PORT: String(port),
        LOCAL_OIDC_PORT: String(oidcPort),
        MAIL_CATCHER_PORT: String(mailPort),
        DATABASE_URL: process.env.DATABASE_URL!,
      }),
    );
    await waitFor(
      async () => {
        if (preview.proc.exitCode !== null) throw new Error(`preview exited:\n${preview.output()}`);
        const up = await fetch(`http://localhost:${port}/healthz`).catch(() => null);
        return up?.status === 200;
      },
      { what: "the preview's health check", timeout: 60_000, every: 100, detail: preview.output },
    );
  }, 120_000);

  afterAll(async () => {
    if (preview?.proc.exitCode === null) {
      preview.proc.kill("SIGTERM");
      await within(preview.exited, { what: "the preview to stop", timeout: 10_000 }).catch(
        () => undefined,
      );
    }
  });

  it("serves the production build, signs in through the local issuer, and catches mail", async () => {
    const home = await fetch(`http://localhost:${port}/`);
    expect(home.status).toBe(200);
    // production: HSTS, and the server's JSON log lines
    expect(home.headers.get("strict-transport-security")).toContain("max-age=");
    await waitFor(() => /"msg":"request"/.test(preview.output()), {
      what: "a request log line",
      timeout: 5_000,
      detail: preview.output,
    });
    expect(preview.output()).toMatch(/^\{"level":"info".*"msg":"request"/m);

    const login = await fetch(`http://localhost:${port}/api/login?returnTo=/`, {
      redirect: "manual",
    });
    expect(login.status).toBe(302);
    const issuer = new URL(login.headers.get("location")!);
    expect(issuer.origin).toBe(`http://127.0.0.1:${oidcPort}`);
    expect(issuer.searchParams.get("redirect_uri")).toBe(`http://localhost:${port}/api/callback`);
    // the issuer answers the sign-in with its own page (its interaction cookies carried along)
    const jar = new Map<string, string>();
    const keep = (response: Response) => {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(";");
        const at = pair.indexOf("=");
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
    };
    let page = await fetch(issuer, { redirect: "manual" });
    keep(page);
    for (let hops = 0; page.status >= 300 && page.status < 400 && hops < 5; hops += 1) {
      page = await fetch(new URL(page.headers.get("location")!, issuer), {
        redirect: "manual",
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      keep(page);
    }
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Sign in to BidYard");

    const catcher = await fetch(`http://127.0.0.1:${mailPort}/`);
    expect(catcher.status).toBe(200);
    // the demo data, seeded with --demo
    expect(preview.output()).toContain("seeded users");
  });

  it("stops the server and the local services on SIGTERM", async () => {
    preview.proc.kill("SIGTERM");
    expect(await within(preview.exited, { what: "the preview to stop", timeout: 15_000 })).toBe(0);
    expect(await fetch(`http://localhost:${port}/healthz`).catch(() => null)).toBeNull();
  });
});
