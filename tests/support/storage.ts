// Storage drivers for tests: S3 through a real, signature-checking s3rver, and the filesystem
// driver behind a tiny HTTP server that does what the /storage/* route does.
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import S3rver from "@20minutes/s3rver";
import { createFilesystemStorage } from "~/platform/storage/filesystem.server";
import { createS3Storage } from "~/platform/storage/s3.server";
import type { ObjectStorage } from "~/platform/storage/types";

export type TestStorage = {
  storage: ObjectStorage;
  /** Moves the driver's clock (signing time and expiry checks). */
  setNow: (date: Date) => void;
  stop: () => Promise<void>;
  /**
   * Whether a PUT to this signed upload URL has reached the store, before its body is all read:
   * the filesystem driver has claimed the URL; s3rver has opened the object's file.
   */
  reached: (uploadURL: string) => boolean;
};

/** A bucket on a local s3rver: what the app's S3_* settings would name, and how to stop it. */
export type LocalBucket = {
  bucket: string;
  region: string;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The settings a server process is given for it (FILE_STORAGE=s3 and the S3_* values). */
  env: Record<string, string>;
  /** Whether s3rver has begun writing `key` (it opens the object's file as a PUT starts). */
  writing: (key: string) => boolean;
  stop: () => Promise<void>;
};

/** A real, signature-checking S3 on a free port of 127.0.0.1, its objects in a temporary folder. */
export async function startS3rver(bucket = "bidyard-test"): Promise<LocalBucket> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings = {
    bucket,
    region: "us-east-1",
    endpoint,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
  return {
    ...settings,
    env: {
      FILE_STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    },
    writing: (key) => {
      const parts = key.split("/");
      const file = `${parts.pop()}._S3rver_object`;
      return existsSync(path.join(directory, bucket, ...parts, file));
    },
    stop: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

export async function startS3rverStorage(): Promise<TestStorage> {
  const bucket = await startS3rver();
  let now = () => new Date();
  const storage = createS3Storage({
    bucket: bucket.bucket,
    region: bucket.region,
    endpoint: bucket.endpoint,
    accessKeyId: bucket.accessKeyId,
    secretAccessKey: bucket.secretAccessKey,
    now: () => now(),
  });
  return {
    storage,
    setNow: (date) => {
      now = () => date;
    },
    stop: bucket.stop,
    // a path-style URL: /<bucket>/<key>
    reached: (uploadURL) =>
      bucket.writing(
        decodeURIComponent(new URL(uploadURL).pathname).slice(`/${bucket.bucket}/`.length),
      ),
  };
}

export async function startFilesystemStorage(): Promise<TestStorage> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-uploads-"));
  let now = () => new Date();
  let baseUrl = "http://127.0.0.1:1";
  const storage = createFilesystemStorage({
    root,
    secret: "test-storage-secret",
    baseUrl: "http://placeholder",
    now: () => now(),
  });
  const server = http.createServer(async (req, res) => {
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(new URL(req.url!, baseUrl), {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: "half",
    } as RequestInit);
    const response = await storage.handleSignedRequest(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const driver = createFilesystemStorage({
    root,
    secret: "test-storage-secret",
    baseUrl,
    now: () => now(),
  });
  return {
    storage: driver,
    setNow: (date) => {
      now = () => date;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await fs.rm(root, { recursive: true, force: true });
    },
    reached: (uploadURL) => {
      // the driver's route is /storage/<key>; the claim is claims/<key>
      const key = decodeURIComponent(new URL(uploadURL).pathname).replace(/^\/storage\//, "");
      return existsSync(path.join(root, "claims", key));
    },
  };
}
