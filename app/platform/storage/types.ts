// The storage contract every driver meets. Keys are opaque paths such as "kyc/Zx…"; objects are
// private: the only ways in are these calls and short-lived signed URLs.
import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";

export type ObjectInfo = { key: string; size: number; contentType: string };

/** A URL the browser may PUT exactly one body to: this size, this Content-Type, before expiry. */
export type UploadTarget = {
  url: string;
  method: "PUT";
  /** Headers the PUT must carry (the signed Content-Type). */
  headers: Record<string, string>;
  expiresAt: Date;
};

export type PresignUploadOptions = {
  contentType: string;
  /** The exact byte length the PUT must have. */
  size: number;
  expiresInSeconds?: number;
};

export type SignedDownloadOptions = {
  expiresInSeconds?: number;
  /** `inline` (default) to view in the browser, `attachment` to download. */
  disposition?: "inline" | "attachment";
  filename?: string;
};

export type PutOptions = {
  contentType: string;
  /** Hard cap: a longer body fails with ObjectTooLargeError and nothing is stored. */
  maxBytes: number;
};

export type ByteSource = AsyncIterable<Uint8Array> | Uint8Array;

export interface ObjectStorage {
  readonly driver: "s3" | "filesystem";
  /**
   * Streams `body` to `key` (never holding it all in memory). Never replaces a stored object: an
   * existing key fails with ObjectExistsError and the stored bytes stay as they were.
   */
  put(key: string, body: ByteSource, options: PutOptions): Promise<ObjectInfo>;
  /** Size and content type, or null when there is no such object. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Bytes `start`..`end` inclusive (HTTP Range semantics), fewer at the end of the object. */
  readRange(key: string, start: number, end: number): Promise<Uint8Array>;
  /** The whole object as a stream, or null. */
  read(key: string): Promise<{ info: ObjectInfo; body: Readable } | null>;
  /** Removes the object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  presignUpload(key: string, options: PresignUploadOptions): Promise<UploadTarget>;
  signedDownloadUrl(key: string, options?: SignedDownloadOptions): Promise<string>;
}

export const DEFAULT_UPLOAD_EXPIRY_SECONDS = 10 * 60;
export const DEFAULT_DOWNLOAD_EXPIRY_SECONDS = 5 * 60;

export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes`);
    this.name = "ObjectTooLargeError";
  }
}

/** `put` to a key that already holds an object: objects are written once, never replaced. */
export class ObjectExistsError extends Error {
  constructor(readonly key: string) {
    super(`An object is already stored at ${key}`);
    this.name = "ObjectExistsError";
  }
}

/**
 * The storage service failed or could not be reached in time (not the file's fault). Routes answer
 * 503 with a clear message; nothing that depends on the object is recorded.
 */
export class StorageUnavailableError extends Error {
  constructor(
    readonly operation: string,
    options?: { cause?: unknown },
  ) {
    super(`Storage is unavailable (${operation})`, options);
    this.name = "StorageUnavailableError";
  }
}

/** A key no driver accepts: a bug in the caller, never an outage. */
export class InvalidObjectKeyError extends Error {
  constructor(key: string) {
    super(`Invalid object key: ${JSON.stringify(key)}`);
    this.name = "InvalidObjectKeyError";
  }
}

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export function isValidObjectKey(key: string) {
  return key.length <= 256 && KEY.test(key);
}

export function assertObjectKey(key: string) {
  if (!isValidObjectKey(key)) throw new InvalidObjectKeyError(key);
}

/** A fresh key no one can guess: `prefix/` and 192 random bits. */
export function newObjectKey(prefix: string) {
  const key = `${prefix}/${randomBytes(24).toString("base64url")}`;
  assertObjectKey(key);
  return key;
}

/** Passes bytes through and throws ObjectTooLargeError as soon as more than `maxBytes` arrive. */
export async function* limitBytes(source: ByteSource, maxBytes: number) {
  const chunks = source instanceof Uint8Array ? [source] : source;
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new ObjectTooLargeError(maxBytes);
    yield chunk;
  }
}

export function contentDisposition(options: SignedDownloadOptions) {
  const kind = options.disposition ?? "inline";
  const name = (options.filename ?? "").replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  return name ? `${kind}; filename="${name}"` : kind;
}
