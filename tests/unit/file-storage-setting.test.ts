// Where uploaded files live (docs/decisions/3105): production never falls back to the local disk
// on its own; development and tests keep the folder UPLOADS_DIR unless a bucket is set.
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/platform/env.server";
import { productionSecrets } from "../support/production-settings";
import { createStorageFromEnv } from "~/platform/storage/index.server";

const production = productionSecrets;

const bucket = {
  S3_BUCKET: "bidyard-documents",
  S3_ENDPOINT: "https://fly.storage.tigris.dev",
  S3_ACCESS_KEY_ID: "tid_key",
  S3_SECRET_ACCESS_KEY: "tsec_secret",
};

describe("FILE_STORAGE in production", () => {
  it("refuses to start with neither a bucket nor FILE_STORAGE=local, naming both", () => {
    expect(() => parseEnv(production)).toThrow(/S3_BUCKET or FILE_STORAGE=local/);
    // an empty value (a secret set to "") is no choice either
    expect(() => parseEnv({ ...production, FILE_STORAGE: " " })).toThrow(/FILE_STORAGE=local/);
  });

  it("refuses FILE_STORAGE=s3 without S3_BUCKET", () => {
    expect(() => parseEnv({ ...production, FILE_STORAGE: "s3" })).toThrow(
      /FILE_STORAGE=s3 needs S3_BUCKET/,
    );
  });

  it("refuses FILE_STORAGE=local beside S3_BUCKET: two answers to one question", () => {
    expect(() => parseEnv({ ...production, ...bucket, FILE_STORAGE: "local" })).toThrow(
      /FILE_STORAGE=local and S3_BUCKET are both set/,
    );
  });

  it("refuses a value that is neither s3 nor local, with the setting's name", () => {
    expect(() => parseEnv({ ...production, FILE_STORAGE: "disk" })).toThrow(/FILE_STORAGE/);
  });

  it("keeps files in the bucket when S3_BUCKET is set", () => {
    const env = parseEnv({ ...production, ...bucket });
    expect(env.fileStorage).toBe("s3");
    expect(env.s3Configured).toBe(true);
    expect(createStorageFromEnv(env).driver).toBe("s3");
  });

  it("keeps files in the bucket with FILE_STORAGE=s3 and S3_BUCKET", () => {
    const env = parseEnv({ ...production, ...bucket, FILE_STORAGE: "s3" });
    expect(env.fileStorage).toBe("s3");
    expect(createStorageFromEnv(env).driver).toBe("s3");
  });

  it("keeps files in UPLOADS_DIR only when told FILE_STORAGE=local", () => {
    const env = parseEnv({ ...production, FILE_STORAGE: "local", UPLOADS_DIR: "/data/uploads" });
    expect(env.fileStorage).toBe("local");
    expect(env.s3Configured).toBe(false);
    expect(env.UPLOADS_DIR).toBe("/data/uploads");
    expect(createStorageFromEnv(env).driver).toBe("filesystem");
  });
});

describe.each(["development", "test"])("FILE_STORAGE under NODE_ENV=%s", (NODE_ENV) => {
  it("defaults to the folder UPLOADS_DIR, as before", () => {
    const env = parseEnv({ NODE_ENV });
    expect(env.fileStorage).toBe("local");
    expect(env.UPLOADS_DIR).toBe(".data/uploads");
    expect(createStorageFromEnv(env).driver).toBe("filesystem");
  });

  it("uses the bucket when S3_BUCKET is set", () => {
    const env = parseEnv({ NODE_ENV, ...bucket });
    expect(env.fileStorage).toBe("s3");
    expect(createStorageFromEnv(env).driver).toBe("s3");
  });

  it("accepts either value said outright", () => {
    expect(parseEnv({ NODE_ENV, FILE_STORAGE: "local" }).fileStorage).toBe("local");
    expect(parseEnv({ NODE_ENV, ...bucket, FILE_STORAGE: "s3" }).fileStorage).toBe("s3");
  });

  it("still refuses FILE_STORAGE=s3 without a bucket", () => {
    expect(() => parseEnv({ NODE_ENV, FILE_STORAGE: "s3" })).toThrow(/needs S3_BUCKET/);
  });
});
