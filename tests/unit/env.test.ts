import { describe, expect, it } from "vitest";
import { parseEnv } from "~/platform/env.server";
import { productionSecrets as baseSecrets } from "../support/production-settings";

const productionSecrets = {
  ...baseSecrets,
  // where uploads live must be said in production (file-storage-setting.test.ts)
  FILE_STORAGE: "local",
};

describe("environment", () => {
  it("needs nothing set for local development", () => {
    const env = parseEnv({});
    expect(env.NODE_ENV).toBe("development");
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.+127\.0\.0\.1:54329\/bidyard$/);
    expect(env.SESSION_SECRETS.length).toBe(1);
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.paypalConfigured).toBe(false);
    expect(env.s3Configured).toBe(false);
    expect(env.PLATFORM_FEE_PERCENT).toBe(10);
  });

  it("reads comma lists for rotating secrets and admin e-mails", () => {
    const env = parseEnv({
      SESSION_SECRET: "new-secret, old-secret",
      ADMIN_EMAILS: " A@x.io ,b@y.io",
    });
    expect(env.SESSION_SECRETS).toEqual(["new-secret", "old-secret"]);
    expect(env.adminEmails).toEqual(["a@x.io", "b@y.io"]);
  });

  it("starts in production when every secret is there", () => {
    const env = parseEnv(productionSecrets);
    expect(env.isProduction).toBe(true);
    expect(env.paypalConfigured).toBe(true);
  });

  it.each([
    "DATABASE_URL",
    "SESSION_SECRET",
    "OIDC_ISSUER",
    "OIDC_CLIENT_SECRET",
    "PAYPAL_CLIENT_ID",
  ])("refuses production without %s", (name) => {
    const source: Record<string, string | undefined> = { ...productionSecrets, [name]: undefined };
    expect(() => parseEnv(source)).toThrow(name);
  });

  it("refuses a short production session secret", () => {
    expect(() => parseEnv({ ...productionSecrets, SESSION_SECRET: "short" })).toThrow(
      /SESSION_SECRET/,
    );
  });

  it("rejects malformed values with the setting's name", () => {
    expect(() => parseEnv({ PLATFORM_FEE_PERCENT: "-5" })).toThrow(/PLATFORM_FEE_PERCENT/);
    expect(() => parseEnv({ PORT: "http" })).toThrow(/PORT/);
  });
});
