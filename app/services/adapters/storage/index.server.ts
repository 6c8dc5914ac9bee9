// The storage adapter: one contract (./types), two drivers, chosen once from the environment.
import { createHmac } from "node:crypto";
import { env, type Env } from "~/utils/env.server";
import { createFilesystemStorage, type FilesystemStorage } from "./filesystem.server";
import { createS3Storage } from "./s3.server";
import type { ObjectStorage } from "./types";

export * from "./types";
export { detectFileType, FILE_TYPES, FILE_TYPE_SNIFF_BYTES } from "~/utils/file-type";
export type { DetectedFileType } from "~/utils/file-type";
export { FileRejectedError, sniffFile, type SniffedFile } from "./sniff.server";

export function createStorageFromEnv(e: Env = env()): ObjectStorage {
  if (e.s3Configured) {
    return createS3Storage({
      bucket: e.S3_BUCKET!,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    });
  }
  return createFilesystemStorage({
    root: e.UPLOADS_DIR,
    secret: createHmac("sha256", e.SESSION_SECRETS[0]).update("storage").digest("hex"),
    baseUrl: e.APP_URL,
  });
}

let current: ObjectStorage | undefined;

/** The app's object storage (S3 when S3_BUCKET is set, else the folder UPLOADS_DIR). */
export function storage(): ObjectStorage {
  current ??= createStorageFromEnv();
  return current;
}

/** The filesystem driver when it is the one in use (it serves its own signed URLs), else null. */
export function filesystemStorage(): FilesystemStorage | null {
  const s = storage();
  return s.driver === "filesystem" ? (s as FilesystemStorage) : null;
}

/** Tests swap in a driver of their own (or undefined to go back to the environment's). */
export function setStorageForTests(replacement: ObjectStorage | undefined) {
  current = replacement;
}
