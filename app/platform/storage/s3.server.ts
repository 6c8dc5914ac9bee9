// S3-compatible driver (AWS S3, R2, MinIO, s3rver in tests). Browsers upload straight to the
// bucket with a presigned PUT; the server streams no-JS uploads through a temporary file so the
// object is written with a known length and never held in memory.
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertObjectKey,
  contentDisposition,
  DEFAULT_DOWNLOAD_EXPIRY_SECONDS,
  DEFAULT_UPLOAD_EXPIRY_SECONDS,
  limitBytes,
  ObjectExistsError,
  type ObjectInfo,
  type ObjectStorage,
} from "./types";

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** Omit for AWS itself; set for R2, MinIO, s3rver (path-style addressing is then used). */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  now?: () => Date;
  /** How long to wait for a connection and for an answer (tests shorten them). */
  timeouts?: { connectMs?: number; requestMs?: number };
};

/** A bucket that does not answer must not hold a request (and its upload) forever. */
export const S3_TIMEOUTS = { connectMs: 3_000, requestMs: 20_000 };

function isNotFound(error: unknown) {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

type Sdk = typeof import("@aws-sdk/client-s3") & {
  getSignedUrl: typeof import("@aws-sdk/s3-request-presigner").getSignedUrl;
};

export function createS3Storage(options: S3StorageOptions): ObjectStorage & { driver: "s3" } {
  const now = options.now ?? (() => new Date());
  const Bucket = options.bucket;
  // The AWS SDK is loaded on first use, not at server start (it is about a third of the start
  // time, and the filesystem driver never needs it).
  let loading: Promise<{ sdk: Sdk; client: import("@aws-sdk/client-s3").S3Client }> | undefined;
  const s3 = () =>
    (loading ??= (async () => {
      const [s3sdk, presigner] = await Promise.all([
        import("@aws-sdk/client-s3"),
        import("@aws-sdk/s3-request-presigner"),
      ]);
      const sdk: Sdk = { ...s3sdk, getSignedUrl: presigner.getSignedUrl };
      const client = new sdk.S3Client({
        region: options.region,
        endpoint: options.endpoint,
        forcePathStyle: Boolean(options.endpoint),
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
        // Presigned PUTs must not embed an empty-body CRC32 that real S3/R2/MinIO reject.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        // Without these the SDK waits forever for a bucket that accepts and never answers (its
        // request timeout only logs a warning unless told to throw). One retry, then give up.
        requestHandler: {
          connectionTimeout: options.timeouts?.connectMs ?? S3_TIMEOUTS.connectMs,
          requestTimeout: options.timeouts?.requestMs ?? S3_TIMEOUTS.requestMs,
          socketTimeout: options.timeouts?.requestMs ?? S3_TIMEOUTS.requestMs,
          throwOnRequestTimeout: true,
        },
        maxAttempts: 2,
      });
      return { sdk, client };
    })());

  async function head(key: string): Promise<ObjectInfo | null> {
    const { sdk, client } = await s3();
    assertObjectKey(key);
    try {
      const answer = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
      return {
        key,
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? "application/octet-stream",
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  return {
    driver: "s3",
    head,

    async put(key, body, put) {
      const { sdk, client } = await s3();
      assertObjectKey(key);
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bidyard-upload-"));
      const tmp = path.join(dir, "body");
      try {
        await pipeline(Readable.from(limitBytes(body, put.maxBytes)), createWriteStream(tmp));
        const { size } = await fs.stat(tmp);
        try {
          await client.send(
            new sdk.PutObjectCommand({
              Bucket,
              Key: key,
              Body: createReadStream(tmp),
              ContentLength: size,
              ContentType: put.contentType,
              // A conditional write: S3, R2 and MinIO refuse it (412) when the key exists, so a
              // stored object is never replaced.
              IfNoneMatch: "*",
            }),
          );
        } catch (error) {
          const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata
            ?.httpStatusCode;
          if (status === 412 || status === 409) throw new ObjectExistsError(key);
          throw error;
        }
        return { key, size, contentType: put.contentType };
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },

    async readRange(key, start, end) {
      const { sdk, client } = await s3();
      assertObjectKey(key);
      try {
        const answer = await client.send(
          new sdk.GetObjectCommand({ Bucket, Key: key, Range: `bytes=${start}-${end}` }),
        );
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (isNotFound(error) || e?.$metadata?.httpStatusCode === 416) return new Uint8Array();
        throw error;
      }
    },

    async read(key) {
      const { sdk, client } = await s3();
      assertObjectKey(key);
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
        return {
          info: {
            key,
            size: answer.ContentLength ?? 0,
            contentType: answer.ContentType ?? "application/octet-stream",
          },
          body: answer.Body as Readable,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      const { sdk, client } = await s3();
      assertObjectKey(key);
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },

    async presignUpload(key, { contentType, size, expiresInSeconds }) {
      const { sdk, client } = await s3();
      assertObjectKey(key);
      const expiresIn = expiresInSeconds ?? DEFAULT_UPLOAD_EXPIRY_SECONDS;
      const signingDate = now();
      // Content-Length is signed by default; Content-Type only when asked. A presigned PUT
      // cannot say "at most N bytes", so it is bound to the exact size and checked by HEAD later.
      const url = await sdk.getSignedUrl(
        client,
        new sdk.PutObjectCommand({
          Bucket,
          Key: key,
          ContentType: contentType,
          ContentLength: size,
        }),
        { expiresIn, signingDate, signableHeaders: new Set(["content-type"]) },
      );
      return {
        url,
        method: "PUT",
        headers: { "Content-Type": contentType },
        expiresAt: new Date(signingDate.getTime() + expiresIn * 1000),
      };
    },

    async signedDownloadUrl(key, download = {}) {
      const { sdk, client } = await s3();
      assertObjectKey(key);
      return sdk.getSignedUrl(
        client,
        new sdk.GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentDisposition: contentDisposition(download),
          ResponseCacheControl: "private, no-store",
        }),
        {
          expiresIn: download.expiresInSeconds ?? DEFAULT_DOWNLOAD_EXPIRY_SECONDS,
          signingDate: now(),
        },
      );
    },
  };
}
