// Listing photos: read from a multipart post under hard caps, checked by content (JPG or PNG by
// their first bytes), re-encoded with sharp (which also drops EXIF such as GPS) into a full-size
// picture and a thumbnail, stored through the storage adapter and served by /listing-photos/{id}.
import type { UploadHandler } from "@remix-run/node";
import { parseMultipartBody } from "~/http/multipart-body.server";
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { ListingPhoto } from "~/models/listing.server";
import { newObjectKey, storage, StorageUnavailableError } from "~/platform/storage/index.server";
import { activeContentIn, isUnsafeFileName } from "~/platform/file-safety.server";
import { drainPart, readPartUpTo } from "~/platform/multipart-upload.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { detectFileType } from "~/utils/file-type";
import { UserError } from "~/utils/user-error";
import { PHOTO_MESSAGES, type PhotoProblem } from "~/services/listings/messages";
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from "~/services/listings/rules";
import { cleanField, cleanFormData } from "~/utils/clean-text";
import { loadSharp } from "~/platform/sharp.server";
import { IMAGE_INPUT, imageProblemOf } from "~/platform/image-decode.server";
import { readForm } from "~/http/form-body.server";
import { log } from "~/platform/log.server";

const MAX_TEXT_FIELD_BYTES = 32_000;
const FULL = { width: 1600, height: 1200 };
const THUMB = { width: 480, height: 360 };

/** A photo refused (400), or photo storage down (`unavailable`, 503): nothing was saved. */
export class PhotoRejectedError extends UserError {
  constructor(readonly problem: PhotoProblem) {
    super(PHOTO_MESSAGES[problem], {
      status: problem === "unavailable" ? 503 : 400,
      field: "photos",
      code: `photo_${problem}`,
    });
  }
}

export type StoredPhoto = {
  key: string;
  thumbnailKey: string;
  contentType: string;
  width: number;
  height: number;
};

export type ListingFormPost = {
  formData: FormData;
  photos: Uint8Array[];
  photoProblem: PhotoProblem | null;
};

/**
 * Reads the Post Vehicle form: text fields into a FormData, each chosen photo into memory up to
 * MAX_PHOTO_BYTES (sharp needs the whole image), at most MAX_PHOTOS of them. A url-encoded post
 * (no photos) is read as it is.
 */
export async function readListingForm(request: Request, userId: string): Promise<ListingFormPost> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data")) {
    return { formData: cleanFormData(await readForm(request)), photos: [], photoProblem: null };
  }
  // Photos cost memory and CPU (sharp): multipart posts share the upload budget per user.
  await consumeRateLimit(request, "upload", userId);
  const formData = new FormData();
  const photos: Uint8Array[] = [];
  let photoProblem: PhotoProblem | null = null;

  const handler: UploadHandler = async ({ name, filename, data }) => {
    const iterator = data[Symbol.asyncIterator]();
    if (filename === undefined) {
      const bytes = await readPartUpTo(iterator, MAX_TEXT_FIELD_BYTES);
      if (!bytes) throw new Response("Form field too large", { status: 413 });
      formData.append(name, cleanField(name, Buffer.from(bytes).toString("utf8")));
      return undefined;
    }
    if (name === "photos" && filename && !photoProblem && isUnsafeFileName(filename))
      photoProblem = "name";
    if (name !== "photos" || photoProblem) {
      await drainPart(iterator, MAX_PHOTO_BYTES * 2);
      return undefined;
    }
    const bytes = await readPartUpTo(iterator, MAX_PHOTO_BYTES);
    if (!bytes) {
      photoProblem = "too_large";
      await drainPart(iterator, MAX_PHOTO_BYTES * 2);
      return undefined;
    }
    if (bytes.byteLength === 0) {
      // An empty file input sends an empty part without a name; a named one is an empty file.
      if (filename) photoProblem = "empty";
      return undefined;
    }
    if (photos.length >= MAX_PHOTOS) {
      photoProblem = "too_many";
      return undefined;
    }
    photos.push(bytes);
    return undefined;
  };

  await parseMultipartBody(request, handler);
  return { formData, photos, photoProblem };
}

/** Checks that `bytes` is a JPG or PNG by content and makes the two sizes we serve. */
export async function preparePhoto(bytes: Uint8Array) {
  const type = detectFileType(bytes.subarray(0, 8));
  if (type !== "jpg" && type !== "png") throw new PhotoRejectedError("type");
  // Re-encoding would drop a script riding along, but a file that carries one is refused.
  if (activeContentIn(bytes, type)) throw new PhotoRejectedError("unsafe");
  const sharp = await loadSharp();
  try {
    const source = sharp(bytes, IMAGE_INPUT).rotate();
    const full = await source
      .clone()
      .resize({ ...FULL, fit: "inside", withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    const thumbnail = await source
      .clone()
      .resize({ ...THUMB, fit: "cover" })
      .jpeg({ quality: 75, mozjpeg: true })
      .toBuffer();
    return { full: full.data, width: full.info.width, height: full.info.height, thumbnail };
  } catch (error) {
    throw new PhotoRejectedError(imageProblemOf(error));
  }
}

/** Prepares and stores every photo, or stores none (throws PhotoRejectedError). */
export async function storePhotos(photos: Uint8Array[]): Promise<StoredPhoto[]> {
  if (photos.length > MAX_PHOTOS) throw new PhotoRejectedError("too_many");
  const prepared = [];
  for (const bytes of photos) prepared.push(await preparePhoto(bytes));
  const stored: StoredPhoto[] = [];
  // every key a put was tried for: a failed put may still have left something (a partial file)
  const tried: string[] = [];
  const put = async (key: string, bytes: Uint8Array) => {
    tried.push(key);
    await storage().put(key, bytes, { contentType: "image/jpeg", maxBytes: MAX_PHOTO_BYTES });
  };
  try {
    for (const photo of prepared) {
      const key = newObjectKey("listings");
      const thumbnailKey = `${key}_thumb`;
      await put(key, photo.full);
      await put(thumbnailKey, photo.thumbnail);
      stored.push({
        key,
        thumbnailKey,
        contentType: "image/jpeg",
        width: photo.width,
        height: photo.height,
      });
    }
  } catch (error) {
    await deleteObjects(tried);
    if (error instanceof StorageUnavailableError) throw new PhotoRejectedError("unavailable");
    throw error;
  }
  return stored;
}

/**
 * Deletes photo objects nobody uses; never throws (it runs after a commit, or while another error
 * is on its way out). An object storage cannot delete now is logged: no row points at it.
 */
export async function deleteStoredPhotos(photos: Array<Pick<StoredPhoto, "key" | "thumbnailKey">>) {
  await deleteObjects(photos.flatMap((p) => [p.key, p.thumbnailKey]));
}

async function deleteObjects(keys: string[]) {
  const results = await Promise.allSettled(keys.map((key) => storage().delete(key)));
  results.forEach((result, index) => {
    if (result.status === "rejected")
      log().error({ err: result.reason, object_key: keys[index] }, "photo object left behind");
  });
}

/** Adds stored photos to a listing after its existing ones, inside the caller's transaction. */
export async function attachPhotos(
  listingId: string,
  photos: StoredPhoto[],
  transaction: Transaction,
) {
  if (photos.length === 0) return;
  const [{ next }] = await sequelize.query<{ next: number }>(
    "SELECT coalesce(max(position) + 1, 0) AS next FROM listing_photos WHERE listing_id = $1",
    { bind: [listingId], type: QueryTypes.SELECT, transaction },
  );
  if (Number(next) + photos.length > MAX_PHOTOS) throw new PhotoRejectedError("too_many");
  for (const [index, photo] of photos.entries()) {
    const [{ id }] = await sequelize.query<{ id: string }>(
      "SELECT nextval('listing_photos_id_seq')::text AS id",
      { type: QueryTypes.SELECT, transaction },
    );
    await ListingPhoto.create(
      {
        id,
        listingId,
        position: Number(next) + index,
        url: `/listing-photos/${id}`,
        thumbnailUrl: `/listing-photos/${id}?size=thumb`,
        storageKey: photo.key,
        thumbnailKey: photo.thumbnailKey,
        contentType: photo.contentType,
        width: photo.width,
        height: photo.height,
      },
      { transaction },
    );
  }
}

/** Removes some of a listing's photos (rows now, objects after the commit). */
export async function removePhotos(
  listingId: string,
  photoIds: string[],
  transaction: Transaction,
) {
  const ids = photoIds.filter((id) => /^\d{1,18}$/.test(id));
  if (ids.length === 0) return [];
  const photos = await ListingPhoto.findAll({ where: { listingId, id: ids }, transaction });
  await ListingPhoto.destroy({ where: { listingId, id: ids }, transaction });
  // Keep positions dense so "first photo" stays the card's picture.
  await sequelize.query(
    `UPDATE listing_photos p SET position = r.rn - 1
       FROM (SELECT id, row_number() OVER (ORDER BY position) AS rn
               FROM listing_photos WHERE listing_id = $1) r
      WHERE p.id = r.id AND p.position <> r.rn - 1`,
    { bind: [listingId], transaction },
  );
  return photos
    .filter((p) => p.storageKey && p.thumbnailKey)
    .map((p) => ({ key: p.storageKey!, thumbnailKey: p.thumbnailKey! }));
}

/** A stored photo of a visible listing, for /listing-photos/{id}. */
export async function readListingPhoto(rawId: string | undefined, size: "full" | "thumb") {
  if (!rawId || !/^\d{1,18}$/.test(rawId)) return null;
  const [row] = await sequelize.query<{ storage_key: string | null; thumbnail_key: string | null }>(
    `SELECT p.storage_key, p.thumbnail_key FROM listing_photos p
       JOIN listings l ON l.id = p.listing_id
      WHERE p.id = $1 AND l.status <> 'deleted'`,
    { bind: [rawId], type: QueryTypes.SELECT },
  );
  const key = size === "thumb" ? row?.thumbnail_key : row?.storage_key;
  if (!key) return null;
  return storage().read(key);
}
