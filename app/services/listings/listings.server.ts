// Community listings: posting under the allowance, a listing's page, the owner's changes and
// favourites. Search lives in ./search.server (re-exported here).
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { assertListingVin } from "~/services/vehicles/vin-report.server";
import { Listing, ListingFavorite, ListingPhoto } from "~/models/listing.server";
import { User } from "~/models/user.server";
import { listingAllowance, type ListingAllowance } from "~/services/listings/allowance.server";
import {
  attachPhotos,
  deleteStoredPhotos,
  removePhotos,
  storePhotos,
  type StoredPhoto,
} from "~/services/listings/photos.server";
import type { BodyType, Drivetrain, FuelType, Transmission } from "~/services/listings/fields";
import type { ListingCard } from "~/services/listings/search.server";
import type { ListingInput } from "~/services/listings/schemas";
import { fillFromVin, listingFactsFromVin } from "~/services/listings/vin-fill";
import { LIMIT_REACHED, LIMIT_REACHED_TITLE, NOT_LISTED } from "~/services/listings/messages";
import { UserError } from "~/utils/user-error";

/** No listing left to post: a 403 whose way out is a membership. */
export class ListingLimitError extends UserError {
  constructor(readonly allowance: ListingAllowance) {
    super(`${LIMIT_REACHED_TITLE}: ${LIMIT_REACHED}`, {
      status: 403,
      title: LIMIT_REACHED_TITLE,
      code: "listing_limit",
    });
  }
}

/** A listing that is missing, deleted or (for its changes) someone else's: all read as 404. */
export class ListingNotFoundError extends UserError {
  constructor() {
    super(NOT_LISTED, { status: 404 });
  }
}

export {
  COUNT_CAP,
  PAGE_SIZE,
  isCommunityQuery,
  isListingCursor,
  lenientListingFilters,
  listingQueryString,
  parseListingFilters,
  searchListings,
  searchListingsFromQuery,
  type ListingCard,
  type ListingPage,
  type ListingRecord,
} from "~/services/listings/search.server";

function columns(input: ListingInput) {
  return {
    title: input.title,
    description: input.description,
    make: input.make,
    model: input.model,
    year: input.year,
    mileage: input.mileage ?? null,
    price: input.price,
    currency: input.currency,
    condition: input.condition,
    fuelType: (input.fuelType ?? null) as FuelType | null,
    transmission: (input.transmission ?? null) as Transmission | null,
    drivetrain: (input.drivetrain ?? null) as Drivetrain | null,
    exteriorColor: input.exteriorColor ?? null,
    interiorColor: input.interiorColor ?? null,
    bodyType: (input.bodyType ?? null) as BodyType | null,
    country: input.country,
    state: input.state ?? null,
    city: input.city,
    zipCode: input.zipCode ?? null,
    vin: input.vin ?? null,
  };
}

/**
 * Posts a listing for `userId`. The allowance is read and spent under a lock on the user row, so
 * parallel posts queue and never exceed it. Throws ListingLimitError when none is left.
 */
export async function createListing(
  userId: string,
  input: ListingInput,
  photos: StoredPhoto[] = [],
): Promise<string> {
  return sequelize.transaction(async (transaction) => {
    await sequelize.query("SELECT id FROM users WHERE id = $1 FOR UPDATE", {
      bind: [userId],
      type: QueryTypes.SELECT,
      transaction,
    });
    const allowance = await listingAllowance(userId, transaction);
    if (!allowance.canPost) throw new ListingLimitError(allowance);
    const listing = await Listing.create({ userId, ...columns(input) }, { transaction });
    await attachPhotos(String(listing.id), photos, transaction);
    return String(listing.id);
  });
}

/**
 * Post Vehicle with its photos: refuses early when no allowance is left (before any image work),
 * stores the photos, then creates the listing under the lock; stored photos are removed again if
 * the listing is not created. Throws ListingLimitError or PhotoRejectedError.
 */
export async function postListing(userId: string, input: ListingInput, photos: Uint8Array[] = []) {
  // a body type or fuel left empty is what the VIN says it is (docs/decisions/2854)
  input = fillFromVin(input, listingFactsFromVin(await assertListingVin(input)));
  const allowance = await listingAllowance(userId);
  if (!allowance.canPost) throw new ListingLimitError(allowance);
  const stored = await storePhotos(photos);
  try {
    return await createListing(userId, input, stored);
  } catch (error) {
    await deleteStoredPhotos(stored);
    throw error;
  }
}

export async function listingStats(userId: string) {
  const allowance = await listingAllowance(userId);
  return {
    activeListings: allowance.activeListings,
    totalListings: allowance.totalListings,
    remainingFreeListings: allowance.remainingFreeListings,
  };
}

export type ListingDetail = Omit<ListingCard, "imageUrl" | "sellerVerified" | "converted"> & {
  description: string;
  fuelType: FuelType | null;
  transmission: Transmission | null;
  drivetrain: Drivetrain | null;
  exteriorColor: string | null;
  interiorColor: string | null;
  zipCode: string | null;
  vin: string | null;
  status: "active" | "sold";
  soldAt: string | null;
  photos: Array<{ id: string; url: string; thumbnailUrl: string }>;
  seller: { firstName: string; memberSince: string; verified: boolean };
  isOwner: boolean;
};

function parseId(id: string | undefined) {
  return id && /^\d{1,18}$/.test(id) ? id : null;
}

/** A listing's page: public unless deleted. */
export async function getListing(
  rawId: string | undefined,
  viewerId?: string | null,
): Promise<ListingDetail | null> {
  const id = parseId(rawId);
  if (!id) return null;
  const listing = await Listing.findOne({
    where: { id },
    include: [
      { model: User, as: "seller", required: true },
      { model: ListingPhoto, as: "photos" },
    ],
    order: [[{ model: ListingPhoto, as: "photos" }, "position", "ASC"]],
  });
  if (!listing || listing.status === "deleted") return null;
  const seller = (listing as Listing & { seller: User }).seller;
  const photos = (listing as Listing & { photos: ListingPhoto[] }).photos;
  const isFavorite = viewerId
    ? (await ListingFavorite.count({ where: { userId: viewerId, listingId: id } })) > 0
    : false;
  return {
    id: String(listing.id),
    title: listing.title,
    description: listing.description,
    price: listing.price,
    currency: listing.currency,
    condition: listing.condition,
    year: listing.year,
    make: listing.make,
    model: listing.model,
    mileage: listing.mileage,
    bodyType: listing.bodyType,
    fuelType: listing.fuelType,
    transmission: listing.transmission,
    drivetrain: listing.drivetrain,
    exteriorColor: listing.exteriorColor,
    interiorColor: listing.interiorColor,
    city: listing.city,
    state: listing.state,
    country: listing.country,
    zipCode: listing.zipCode,
    vin: listing.vin,
    featured: listing.featured,
    status: listing.status as "active" | "sold",
    soldAt: listing.soldAt?.toISOString() ?? null,
    createdAt: listing.createdAt.toISOString(),
    photos: photos.map((p) => ({ id: String(p.id), url: p.url, thumbnailUrl: p.thumbnailUrl })),
    seller: {
      firstName: seller.firstName?.trim() || "Seller",
      memberSince: seller.createdAt.toISOString(),
      verified: seller.verified,
    },
    isOwner: viewerId === listing.userId,
    isFavorite,
  };
}

async function changeOwned(
  userId: string,
  rawId: string | undefined,
  change: (listing: Listing, transaction: Transaction) => Promise<void>,
) {
  const id = parseId(rawId);
  if (!id) throw new ListingNotFoundError();
  return sequelize.transaction(async (transaction) => {
    const listing = await Listing.findOne({
      where: { id, userId },
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!listing || listing.status === "deleted") throw new ListingNotFoundError();
    await change(listing, transaction);
    return String(listing.id);
  });
}

/** The owner's edit: new field values, photos to add (already stored) and photo ids to remove. */
export async function updateListing(
  userId: string,
  rawId: string | undefined,
  input: ListingInput,
  photos: { add?: StoredPhoto[]; remove?: string[] } = {},
) {
  const removed: Array<{ key: string; thumbnailKey: string }> = [];
  const id = await changeOwned(userId, rawId, async (listing, transaction) => {
    await listing.update(columns(input), { transaction });
    removed.push(...(await removePhotos(String(listing.id), photos.remove ?? [], transaction)));
    await attachPhotos(String(listing.id), photos.add ?? [], transaction);
  });
  await deleteStoredPhotos(removed);
  return id;
}

/** The owner's edit from the form: stores new photos first, removes them again on failure. */
export async function updateListingWithPhotos(
  userId: string,
  rawId: string | undefined,
  input: ListingInput,
  photos: { photos: Uint8Array[]; remove: string[] },
) {
  if (!(await listingForEdit(userId, rawId))) throw new ListingNotFoundError();
  input = fillFromVin(input, listingFactsFromVin(await assertListingVin(input)));
  const stored = await storePhotos(photos.photos);
  try {
    return await updateListing(userId, rawId, input, { add: stored, remove: photos.remove });
  } catch (error) {
    await deleteStoredPhotos(stored);
    throw error;
  }
}

export async function markListingSold(userId: string, rawId: string | undefined) {
  return changeOwned(userId, rawId, async (listing, transaction) => {
    if (listing.status === "sold") return;
    await listing.update({ status: "sold", soldAt: new Date() }, { transaction });
  });
}

/** Takes the listing down for good. The row stays (status deleted) so it still counts as posted. */
export async function deleteListing(userId: string, rawId: string | undefined) {
  const removed: Array<{ key: string; thumbnailKey: string }> = [];
  const id = await changeOwned(userId, rawId, async (listing, transaction) => {
    await listing.update({ status: "deleted", deletedAt: new Date() }, { transaction });
    await ListingFavorite.destroy({ where: { listingId: listing.id }, transaction });
    const photoIds = await ListingPhoto.findAll({
      where: { listingId: listing.id },
      attributes: ["id"],
      transaction,
    });
    removed.push(
      ...(await removePhotos(
        String(listing.id),
        photoIds.map((p) => String(p.id)),
        transaction,
      )),
    );
  });
  await deleteStoredPhotos(removed);
  return id;
}

/** Saves or removes a favourite; only visible (not deleted) listings can be saved. */
export async function setFavorite(userId: string, rawId: string | undefined, favorite: boolean) {
  const id = parseId(rawId);
  if (!id) throw new ListingNotFoundError();
  if (!favorite) {
    await ListingFavorite.destroy({ where: { userId, listingId: id } });
    return;
  }
  const [rows] = await sequelize.query(
    `INSERT INTO listing_favorites (user_id, listing_id)
     SELECT $1, id FROM listings WHERE id = $2 AND status <> 'deleted'
     ON CONFLICT DO NOTHING RETURNING listing_id`,
    { bind: [userId, id] },
  );
  if ((rows as unknown[]).length === 0) {
    const visible = await Listing.count({ where: { id, status: ["active", "sold"] } });
    if (!visible) throw new ListingNotFoundError();
  }
}

/** The owner's listing as the edit form needs it, or null for anyone else. */
export async function listingForEdit(userId: string, rawId: string | undefined) {
  const id = parseId(rawId);
  if (!id) return null;
  const listing = await Listing.findOne({ where: { id, userId } });
  if (!listing || listing.status === "deleted") return null;
  return listing;
}
