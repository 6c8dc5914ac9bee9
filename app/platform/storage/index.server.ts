// The storage adapter: one contract (./types), two drivers, chosen once from the environment.
import { createHmac } from "node:crypto";
import { env, type Env } from "~/platform/env.server";
import { createFilesystemStorage, type FilesystemStorage } from "./filesystem.server";
import { createS3Storage } from "./s3.server";
import { FileRejectedError } from "./sniff.server";
import {
  InvalidObjectKeyError,
  ObjectExistsError,
  ObjectTooLargeError,
  StorageUnavailableError,
  type ObjectStorage,
} from "./types";
import { log } from "~/platform/log.server";

export * from "./types";
export { detectFileType, FILE_TYPES, FILE_TYPE_SNIFF_BYTES } from "~/utils/file-type";
export type { DetectedFileType } from "~/utils/file-type";
export { FileRejectedError, sniffFile, type SniffedFile } from "./sniff.server";

/** The driver FILE_STORAGE chose (env.server.ts refuses production without a choice: 3105). */
export function createStorageFromEnv(e: Env = env()): ObjectStorage {
  if (e.fileStorage === "s3") {
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

/** Errors that say something about the file or the caller, not about the storage service. */
function isOwnError(error: unknown) {
  return (
    error instanceof ObjectTooLargeError ||
    error instanceof ObjectExistsError ||
    error instanceof FileRejectedError ||
    error instanceof InvalidObjectKeyError ||
    error instanceof StorageUnavailableError ||
    error instanceof Response
  );
}

const GUARDED = [
  "put",
  "head",
  "readRange",
  "read",
  "delete",
  "presignUpload",
  "signedDownloadUrl",
  "handleSignedRequest",
] as const;

/**
 * Any driver, with every failure of the service itself (unreachable, timed out, disk full or
 * unwritable, a 5xx from the bucket) turned into one StorageUnavailableError for the routes.
 */
export function guardStorage<T extends ObjectStorage>(driver: T): T {
  const guarded = { ...driver } as Record<string, unknown>;
  for (const name of GUARDED) {
    const method = (driver as unknown as Record<string, unknown>)[name];
    if (typeof method !== "function") continue;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>).apply(driver, args);
      } catch (error) {
        if (isOwnError(error)) throw error;
        log().error({ err: error, method: name }, "storage failed");
        throw new StorageUnavailableError(name, { cause: error });
      }
    };
  }
  return guarded as T;
}

let current: ObjectStorage | undefined;

/** The app's object storage (the bucket S3_BUCKET, or the folder UPLOADS_DIR: FILE_STORAGE). */
export function storage(): ObjectStorage {
  current ??= guardStorage(createStorageFromEnv());
  return current;
}

/** The filesystem driver when it is the one in use (it serves its own signed URLs), else null. */
export function filesystemStorage(): FilesystemStorage | null {
  const s = storage();
  return s.driver === "filesystem" ? (s as FilesystemStorage) : null;
}

/** Tests swap in a driver of their own (or undefined to go back to the environment's). */
export function setStorageForTests(replacement: ObjectStorage | undefined) {
  current = replacement && guardStorage(replacement);
}
