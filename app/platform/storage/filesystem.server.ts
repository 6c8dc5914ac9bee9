// Local driver: objects under a folder, reached from the browser only through HMAC-signed,
// expiring URLs served by the /storage/* route (see `handleSignedRequest`).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertObjectKey,
  contentDisposition,
  DEFAULT_DOWNLOAD_EXPIRY_SECONDS,
  DEFAULT_UPLOAD_EXPIRY_SECONDS,
  isValidObjectKey,
  limitBytes,
  ObjectExistsError,
  ObjectTooLargeError,
  type ByteSource,
  type ObjectInfo,
  type ObjectStorage,
} from "./types";

export type FilesystemStorageOptions = {
  /** Folder that holds the objects. */
  root: string;
  /** Secret for the URL signatures. */
  secret: string;
  /** Public origin the signed URLs point at, e.g. https://bidyard.example. */
  baseUrl: string;
  /** Path the /storage/* route is mounted at. */
  routePath?: string;
  now?: () => Date;
  /**
   * Opens a file for writing: every byte the driver stores goes through it. Tests hand in one
   * that fails the way a full or failing disk does (ENOSPC, EIO); see record 3208.
   */
  createWriteStream?: (file: string) => Writable;
};

export type FilesystemStorage = ObjectStorage & {
  readonly driver: "filesystem";
  /** Answers a request to a signed URL (PUT to upload, GET to download). */
  handleSignedRequest(request: Request): Promise<Response>;
};

type Meta = { contentType: string };

export function createFilesystemStorage(options: FilesystemStorageOptions): FilesystemStorage {
  const root = path.resolve(options.root);
  const routePath = options.routePath ?? "/storage";
  const now = options.now ?? (() => new Date());
  const openForWriting = options.createWriteStream ?? ((file: string) => createWriteStream(file));
  const signingKey = createHmac("sha256", options.secret).update("bidyard-storage-urls").digest();

  const fileFor = (key: string) => {
    assertObjectKey(key);
    return path.join(root, "objects", key);
  };
  const metaFor = (key: string) => `${fileFor(key)}.meta.json`;
  // A signed upload URL is claimed (a file created exclusively) before its body is read, so a
  // second PUT to it, even one started while the first still streams, is refused.
  const claimFor = (key: string) => {
    assertObjectKey(key);
    return path.join(root, "claims", key);
  };
  const sign = (parts: Array<string | number>) =>
    createHmac("sha256", signingKey).update(parts.join("\n")).digest("base64url");
  const signatureMatches = (given: string | null, expected: string) => {
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const urlFor = (key: string, params: Record<string, string>) => {
    const url = new URL(`${routePath}/${key}`, options.baseUrl);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  };

  async function head(key: string): Promise<ObjectInfo | null> {
    try {
      const [stat, meta] = await Promise.all([
        fs.stat(fileFor(key)),
        fs.readFile(metaFor(key), "utf8").then((text) => JSON.parse(text) as Meta),
      ]);
      return { key, size: stat.size, contentType: meta.contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  // The body and its metadata are written to temporary files first and linked into place last,
  // so a write that fails half-way (disk full, I/O error) leaves neither an object nor a part of
  // one: the temporary files go in `finally`, and an object linked before its metadata failed is
  // removed again (record 3208).
  async function put(
    key: string,
    body: ByteSource,
    put: { contentType: string; maxBytes: number },
  ) {
    const target = fileFor(key);
    const tmpDir = path.join(root, "tmp");
    await fs.mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomBytes(12).toString("hex"));
    const tmpMeta = `${tmp}.meta`;
    let linked = false;
    try {
      await pipeline(Readable.from(limitBytes(body, put.maxBytes)), openForWriting(tmp));
      const { size } = await fs.stat(tmp);
      const meta: Meta = { contentType: put.contentType };
      await pipeline(Readable.from([JSON.stringify(meta)]), openForWriting(tmpMeta));
      await fs.mkdir(path.dirname(target), { recursive: true });
      // link, unlike rename, fails when the target exists: a stored object is never replaced.
      await fs.link(tmp, target).catch((error: NodeJS.ErrnoException) => {
        throw error.code === "EEXIST" ? new ObjectExistsError(key) : error;
      });
      linked = true;
      await fs.rename(tmpMeta, metaFor(key));
      return { key, size, contentType: put.contentType };
    } catch (error) {
      if (linked) await fs.rm(target, { force: true }).catch(() => undefined);
      throw error;
    } finally {
      await fs.rm(tmp, { force: true });
      await fs.rm(tmpMeta, { force: true });
    }
  }

  const storage: FilesystemStorage = {
    driver: "filesystem",
    put,
    head,

    async readRange(key, start, end) {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(fileFor(key), "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Uint8Array();
        throw error;
      }
      try {
        const buffer = Buffer.alloc(Math.max(0, end - start + 1));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
        return new Uint8Array(buffer.subarray(0, bytesRead));
      } finally {
        await handle.close();
      }
    },

    async read(key) {
      const info = await head(key);
      if (!info) return null;
      return { info, body: createReadStream(fileFor(key)) };
    },

    async delete(key) {
      await fs.rm(fileFor(key), { force: true });
      await fs.rm(metaFor(key), { force: true });
    },

    async presignUpload(key, { contentType, size, expiresInSeconds }) {
      assertObjectKey(key);
      const expiresAt = new Date(
        now().getTime() + (expiresInSeconds ?? DEFAULT_UPLOAD_EXPIRY_SECONDS) * 1000,
      );
      const exp = String(Math.floor(expiresAt.getTime() / 1000));
      const len = String(size);
      const sig = sign(["PUT", key, contentType, len, exp]);
      return {
        url: urlFor(key, { ct: contentType, len, exp, sig }),
        method: "PUT",
        headers: { "Content-Type": contentType },
        expiresAt,
      };
    },

    async signedDownloadUrl(key, download = {}) {
      assertObjectKey(key);
      const expires =
        now().getTime() + (download.expiresInSeconds ?? DEFAULT_DOWNLOAD_EXPIRY_SECONDS) * 1000;
      const exp = String(Math.floor(expires / 1000));
      const disp = contentDisposition(download);
      return urlFor(key, { exp, disp, sig: sign(["GET", key, exp, disp]) });
    },

    async handleSignedRequest(request) {
      const url = new URL(request.url);
      const key = decodeURIComponent(url.pathname.slice(routePath.length + 1));
      const refuse = (status: number, message: string) =>
        new Response(message, { status, headers: { "Content-Type": "text/plain" } });
      if (!isValidObjectKey(key)) return refuse(404, "Not found");
      const exp = url.searchParams.get("exp") ?? "";
      const sig = url.searchParams.get("sig");
      const expired = !/^\d+$/.test(exp) || Number(exp) * 1000 <= now().getTime();

      if (request.method === "PUT") {
        const ct = url.searchParams.get("ct") ?? "";
        const len = url.searchParams.get("len") ?? "";
        if (!signatureMatches(sig, sign(["PUT", key, ct, len, exp]))) {
          return refuse(403, "Signature does not match");
        }
        if (expired) return refuse(403, "Request has expired");
        if ((request.headers.get("content-type") ?? "") !== ct) {
          return refuse(403, "Content-Type does not match the signed upload");
        }
        const declared = request.headers.get("content-length");
        if (declared !== null && declared !== len) {
          return refuse(403, "Content-Length does not match the signed upload");
        }
        if (!request.body) return refuse(400, "Empty body");
        const body = unCancelled(request.body);
        const claim = claimFor(key);
        // Storage itself failing (disk full, I/O error) is not the URL's fault: the claim goes,
        // so the same URL works once storage is back, and what the client still sends is read
        // (up to the signed length) so that it gets the 503 rather than a reset connection
        // (record 3208). The error goes on to guardStorage and the route's 503.
        const storageFailed = async (error: unknown) => {
          await fs.rm(claim, { force: true }).catch(() => undefined);
          await body.drain(Number(len));
          throw error;
        };
        let claimed: boolean;
        try {
          await fs.mkdir(path.dirname(claim), { recursive: true });
          claimed = await fs.writeFile(claim, "", { flag: "wx" }).then(
            () => true,
            (error: NodeJS.ErrnoException) => {
              if (error.code === "EEXIST") return false;
              throw error;
            },
          );
        } catch (error) {
          // never claimed by this request: nothing of the URL's to remove
          await body.drain(Number(len));
          throw error;
        }
        if (!claimed || (await head(key))) {
          await body.drain(Number(len));
          return refuse(409, "This upload URL has already been used");
        }
        try {
          const info = await put(key, body.chunks(), {
            contentType: ct,
            maxBytes: Number(len),
          });
          if (info.size !== Number(len)) {
            await storage.delete(key);
            return refuse(400, "Body length does not match the signed upload");
          }
        } catch (error) {
          if (error instanceof ObjectTooLargeError) {
            return refuse(413, "Body is larger than the signed upload");
          }
          if (error instanceof ObjectExistsError) {
            await body.drain(Number(len));
            return refuse(409, "This upload URL has already been used");
          }
          return storageFailed(error);
        }
        return new Response(null, { status: 200 });
      }

      if (request.method === "GET" || request.method === "HEAD") {
        const disp = url.searchParams.get("disp") ?? "";
        if (!signatureMatches(sig, sign(["GET", key, exp, disp]))) {
          return refuse(403, "Signature does not match");
        }
        if (expired) return refuse(403, "Request has expired");
        const object = await storage.read(key);
        if (!object) return refuse(404, "Not found");
        const headers = {
          "Content-Type": object.info.contentType,
          "Content-Length": String(object.info.size),
          "Content-Disposition": disp,
          "Cache-Control": "private, no-store",
          "X-Content-Type-Options": "nosniff",
        };
        if (request.method === "HEAD") {
          object.body.destroy();
          return new Response(null, { status: 200, headers });
        }
        return new Response(Readable.toWeb(object.body) as ReadableStream, {
          status: 200,
          headers,
        });
      }

      return refuse(405, "Method not allowed");
    },
  };
  return storage;
}

/**
 * A request body read chunk by chunk without cancelling it when the reading stops early: a
 * cancelled body destroys the client's connection (an empty reply, logged as 499), where a
 * refusal must reach it. `drain` reads and drops what is left, at most `max` bytes.
 */
function unCancelled(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  return {
    async *chunks() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    },
    async drain(max: number) {
      let total = 0;
      try {
        while (total <= max) {
          const { done, value } = await reader.read();
          if (done) return;
          total += value.byteLength;
        }
        await reader.cancel();
      } catch {
        // the client went away: nothing left to answer
      }
    },
  };
}
