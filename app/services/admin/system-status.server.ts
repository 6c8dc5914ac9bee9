import fs from "node:fs/promises";
import path from "node:path";
import { databaseIsUp } from "~/models/db.server";
import { env } from "~/platform/env.server";

export type ServiceStatus = { name: string; ok: boolean; detail: string; ms: number };

async function timed(name: string, probe: () => Promise<string>): Promise<ServiceStatus> {
  const started = performance.now();
  try {
    const detail = await probe();
    return { name, ok: true, detail, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { name, ok: false, detail, ms: Math.round(performance.now() - started) };
  }
}

export function issuerUrl() {
  const e = env();
  return e.OIDC_ISSUER ?? `http://127.0.0.1:${e.LOCAL_OIDC_PORT}`;
}

/** Each outside dependency probed now, with a short timeout, so the page tells the truth. */
export async function systemStatus(): Promise<ServiceStatus[]> {
  const e = env();
  return Promise.all([
    timed("Database", async () => {
      if (!(await databaseIsUp(2_000))) throw new Error("PostgreSQL does not answer");
      return "PostgreSQL answers";
    }),
    timed("Sign-in issuer", async () => {
      const url = `${issuerUrl().replace(/\/$/, "")}/.well-known/openid-configuration`;
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (!response.ok) throw new Error(`Discovery answered ${response.status}`);
      return `${e.OIDC_ISSUER ? "OpenID issuer" : "Local issuer"} answers`;
    }),
    timed("Payment gateway", async () => {
      if (!e.paypalConfigured) return "TEST MODE: built-in test gateway, no real money moves";
      const response = await fetch(`${e.PAYPAL_API_BASE}/v1/oauth2/token`, {
        method: "POST",
        headers: {
          Authorization: `Basic ${Buffer.from(`${e.PAYPAL_CLIENT_ID}:${e.PAYPAL_CLIENT_SECRET}`).toString("base64")}`,
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials",
        signal: AbortSignal.timeout(3_000),
      });
      if (!response.ok) throw new Error(`PayPal answered ${response.status}`);
      return `PayPal (${e.PAYPAL_API_BASE.includes("sandbox") ? "sandbox" : "live"}) accepts our credentials`;
    }),
    timed("File storage", async () => {
      if (e.s3Configured) return `S3 bucket ${e.S3_BUCKET} configured`;
      const dir = path.resolve(e.UPLOADS_DIR);
      await fs.mkdir(dir, { recursive: true });
      const probe = path.join(dir, `.status-${process.pid}`);
      await fs.writeFile(probe, "ok");
      await fs.rm(probe);
      return "Filesystem storage is writable";
    }),
  ]);
}
