// Uploads bound to their owner: issue a one-PUT URL for an exact size and type, confirm what
// arrived (HEAD, then the first bytes), or stream a no-JS upload through the same checks.
// Every object a user stores has a row here; reads go through `signedUrlForUpload`.
import { Op, type Transaction } from "sequelize";
import { Upload } from "~/models/upload.server";
import type { User } from "~/models/user.server";
import {
  FileRejectedError,
  newObjectKey,
  ObjectExistsError,
  ObjectTooLargeError,
  sniffFile,
  storage,
  StorageUnavailableError,
  type ByteSource,
} from "~/platform/storage/index.server";
import { activeContentIn } from "~/platform/file-safety.server";
import { imageProblem } from "~/platform/image-decode.server";
import { UserError } from "~/utils/user-error";
import {
  detectFileType,
  FILE_PROBLEM_MESSAGES,
  FILE_TYPE_SNIFF_BYTES,
  FILE_TYPES,
  fileTypeForContentType,
  MAX_DOCUMENT_BYTES,
  type DetectedFileType,
  type FileProblem,
} from "~/utils/file-type";
import { log } from "~/platform/log.server";

type Policy = { prefix: string; maxBytes: number; types: DetectedFileType[] };

/** What each kind of upload may be. Other features add their purpose here. */
export const UPLOAD_POLICIES = {
  kyc_document: { prefix: "kyc", maxBytes: MAX_DOCUMENT_BYTES, types: ["jpg", "png", "pdf"] },
  affiliate_licence: {
    prefix: "affiliate",
    maxBytes: MAX_DOCUMENT_BYTES,
    types: ["jpg", "png", "pdf"],
  },
} satisfies Record<string, Policy>;

export type UploadPurpose = keyof typeof UPLOAD_POLICIES;

export class UploadError extends UserError {
  constructor(
    status: number,
    message: string,
    readonly problem: FileProblem | null = null,
  ) {
    super(message, { status });
  }
}

const refused = (problem: FileProblem) =>
  new UploadError(problem === "unavailable" ? 503 : 400, FILE_PROBLEM_MESSAGES[problem], problem);

/** Runs a storage call; the service being down becomes a 503 UploadError with a clear message. */
async function orUnavailable<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StorageUnavailableError) throw refused("unavailable");
    throw error;
  }
}

/** The upload URL for one PUT of exactly `size` bytes of `contentType`. */
export async function issueUpload(
  userId: string,
  purpose: UploadPurpose,
  declared: { size: number; contentType: string },
) {
  const policy: Policy = UPLOAD_POLICIES[purpose];
  if (!Number.isInteger(declared.size) || declared.size <= 0) throw refused("empty");
  if (declared.size > policy.maxBytes) throw refused("too_large");
  const type = fileTypeForContentType(declared.contentType);
  if (!type || !policy.types.includes(type)) throw refused("type");
  const contentType = FILE_TYPES[type].contentType;
  const objectKey = newObjectKey(policy.prefix);
  const target = await orUnavailable(() =>
    storage().presignUpload(incomingKeyFor(objectKey), { contentType, size: declared.size }),
  );
  const upload = await Upload.create({
    userId,
    purpose,
    objectKey,
    contentType,
    sizeBytes: declared.size,
    expiresAt: target.expiresAt,
  });
  return { upload, target };
}

/**
 * Where the browser's PUT lands. The object the upload keeps (at its own key) is written only by
 * confirmUpload, from the very bytes it checked: whatever reaches the upload URL later, or twice,
 * changes nothing that is kept (docs/decisions/1302-uploads-checked-bytes-are-kept.md).
 */
export const incomingKeyFor = (objectKey: string) => `incoming/${objectKey}`;

/** Object keys are `prefix/random`: the last two segments of an upload URL's path. */
export function objectKeyFromUrl(value: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(value, "http://x").pathname;
  } catch {
    return null;
  }
  const match = /([A-Za-z0-9_-]+\/[A-Za-z0-9_-]{32})$/.exec(decodeURIComponent(pathname));
  return match ? match[1] : null;
}

/** The path the browser keeps for a stored object (the objectPath the upload calls answer). */
export const objectPathFor = (objectKey: string) => `/objects/${objectKey}`;

export function objectKeyFromPath(objectPath: string): string | null {
  const match = /^\/objects\/([A-Za-z0-9_-]+\/[A-Za-z0-9_-]{32})$/.exec(objectPath);
  return match ? match[1] : null;
}

async function deleteObjects(upload: Upload) {
  await storage().delete(incomingKeyFor(upload.objectKey));
  await storage().delete(upload.objectKey);
}

async function discard(upload: Upload, problem: FileProblem): Promise<never> {
  // With storage down the row stays as it was, for discardStaleUploads to finish later.
  await orUnavailable(() => deleteObjects(upload));
  await upload.update({ status: "discarded" });
  throw refused(problem);
}

/**
 * After the browser's PUT: checks that the caller's object arrived with the bound size and type,
 * reads it once, checks those bytes (type and content) and keeps exactly them under the upload's
 * own key, which nothing else writes. A bad object is deleted.
 */
export async function confirmUpload(userId: string, purpose: UploadPurpose, uploadUrl: string) {
  const objectKey = objectKeyFromUrl(uploadUrl);
  const upload = objectKey ? await Upload.findOne({ where: { objectKey, userId, purpose } }) : null;
  if (!upload || upload.status === "discarded" || upload.status === "attached") {
    throw new UploadError(404, "Upload not found. Please upload the file again.");
  }
  if (upload.status === "stored") return upload;
  const policy: Policy = UPLOAD_POLICIES[purpose];
  const incoming = incomingKeyFor(upload.objectKey);
  const info = await orUnavailable(() => storage().head(incoming));
  if (!info) throw new UploadError(400, "The file did not arrive. Please upload it again.");
  if (info.size === 0) return discard(upload, "empty");
  if (info.size > policy.maxBytes) return discard(upload, "too_large");
  if (info.size !== upload.sizeBytes || info.contentType !== upload.contentType) {
    return discard(upload, "mismatch");
  }
  const bytes = await orUnavailable(() => storage().readRange(incoming, 0, policy.maxBytes));
  if (bytes.byteLength !== upload.sizeBytes) return discard(upload, "mismatch");
  const type = detectFileType(bytes.subarray(0, FILE_TYPE_SNIFF_BYTES));
  if (!type || !policy.types.includes(type)) return discard(upload, "type");
  if (FILE_TYPES[type].contentType !== upload.contentType) return discard(upload, "mismatch");
  if (activeContentIn(bytes, type)) return discard(upload, "unsafe");
  // an image is decoded whole within the pixel limit before it is kept (record 3209)
  const unreadable = type === "pdf" ? null : await imageProblem(bytes);
  if (unreadable) return discard(upload, unreadable);
  try {
    await orUnavailable(() =>
      storage().put(upload.objectKey, bytes, {
        contentType: upload.contentType,
        maxBytes: policy.maxBytes,
      }),
    );
  } catch (error) {
    // Kept by an earlier (or concurrent) confirmation, from bytes it checked the same way.
    if (!(error instanceof ObjectExistsError)) throw error;
  }
  await storage()
    .delete(incoming)
    .catch(() => undefined); // left for discardStaleUploads
  await upload.update({ status: "stored" });
  return upload;
}

/**
 * Streams a file from a form post straight to storage, refusing it (and storing nothing) past the
 * cap, when empty or when its content is not an accepted type.
 */
export async function storeStreamedUpload(
  userId: string,
  purpose: UploadPurpose,
  source: ByteSource,
  declaredContentType = "",
) {
  const policy: Policy = UPLOAD_POLICIES[purpose];
  const objectKey = newObjectKey(policy.prefix);
  // A type the browser claims (from the file's name) must agree with the content; an unknown
  // claim (application/octet-stream) leaves the content to decide.
  const declared = fileTypeForContentType(declaredContentType);
  let size: number;
  let contentType: string;
  try {
    const sniffed = await sniffFile(source, { maxBytes: policy.maxBytes, allowed: policy.types });
    if (declared && declared !== sniffed.type) throw refused("mismatch");
    contentType = FILE_TYPES[sniffed.type].contentType;
    // The bytes pass to storage as they arrive and are kept (at most the policy's cap) for the
    // content check, which needs the whole file; a refused file is deleted at once.
    const seen: Uint8Array[] = [];
    async function* keeping() {
      for await (const chunk of sniffed.stream) {
        seen.push(chunk);
        yield chunk;
      }
    }
    ({ size } = await storage().put(objectKey, keeping(), {
      contentType,
      maxBytes: policy.maxBytes,
    }));
    const whole = Buffer.concat(seen);
    if (activeContentIn(whole, sniffed.type)) {
      await storage().delete(objectKey);
      throw refused("unsafe");
    }
    // an image is decoded whole within the pixel limit before it is kept (record 3209)
    const unreadable = sniffed.type === "pdf" ? null : await imageProblem(whole);
    if (unreadable) {
      await storage().delete(objectKey);
      throw refused(unreadable);
    }
  } catch (error) {
    if (error instanceof FileRejectedError) throw refused(error.problem);
    if (error instanceof ObjectTooLargeError) throw refused("too_large");
    if (error instanceof StorageUnavailableError) {
      // a put that failed half-way may have left a partial object: best effort, nothing owns it
      await storage()
        .delete(objectKey)
        .catch(() => undefined);
      throw refused("unavailable");
    }
    throw error;
  }
  try {
    return await Upload.create({
      userId,
      purpose,
      objectKey,
      contentType,
      sizeBytes: size,
      status: "stored",
      expiresAt: new Date(),
    });
  } catch (error) {
    // No row, no owner: the object must not stay behind.
    await storage()
      .delete(objectKey)
      .catch((error: unknown) =>
        log().error({ err: error, object_key: objectKey }, "upload left without a row"),
      );
    throw error;
  }
}

/**
 * Deletes a stored object nobody will use (e.g. its form was refused). With storage down the row
 * stays "stored" (unattached), so discardStaleUploads deletes the object later.
 */
export async function discardUpload(upload: Upload) {
  try {
    await deleteObjects(upload);
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    return;
  }
  await upload.update({ status: "discarded" });
}

/** Marks the caller's stored upload as used by a record; refuses anyone else's. */
export async function attachUpload(
  userId: string,
  purpose: UploadPurpose,
  objectKey: string,
  transaction: Transaction,
) {
  const upload = await Upload.findOne({
    where: { objectKey, userId, purpose, status: "stored" },
    lock: transaction.LOCK.UPDATE,
    transaction,
  });
  if (!upload) throw new UploadError(404, "Upload not found. Please upload the file again.");
  await upload.update({ status: "attached" }, { transaction });
  return upload;
}

/**
 * Deletes objects whose upload was never finished or never used (URL handed out, file maybe
 * PUT, but not confirmed or not attached) an hour after the URL expired. Safe to run anywhere,
 * any number of times; returns how many it discarded.
 */
export async function discardStaleUploads(now = new Date()) {
  const stale = await Upload.findAll({
    where: {
      status: { [Op.in]: ["issued", "stored"] },
      expiresAt: { [Op.lt]: new Date(now.getTime() - 60 * 60 * 1000) },
    },
    limit: 500,
  });
  for (const upload of stale) {
    await deleteObjects(upload);
    await Upload.update(
      { status: "discarded" },
      { where: { id: upload.id, status: { [Op.in]: ["issued", "stored"] } } },
    );
  }
  return stale.length;
}

export function isUploadPurpose(value: unknown): value is UploadPurpose {
  return typeof value === "string" && Object.hasOwn(UPLOAD_POLICIES, value);
}

/** A short-lived URL to view an object: only for its owner or an admin; null for anyone else. */
export async function signedUrlForUpload(viewer: User, objectKey: string) {
  const upload = await Upload.findOne({
    where: { objectKey, status: { [Op.in]: ["stored", "attached"] } },
  });
  if (!upload) return null;
  if (upload.userId !== viewer.id && viewer.role !== "admin") return null;
  const type = fileTypeForContentType(upload.contentType);
  return storage().signedDownloadUrl(upload.objectKey, {
    expiresInSeconds: 5 * 60,
    disposition: "inline",
    filename: `document.${type ? FILE_TYPES[type].extension : "bin"}`,
  });
}
