import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { Listing, ListingFavorite, ListingPhoto } from "~/models/listing.server";
import { User } from "~/models/user.server";
import { listingAllowance, type ListingAllowance } from "~/services/listing-allowance.server";
import {
  attachPhotos,
  deleteStoredPhotos,
  removePhotos,
  storePhotos,
  type StoredPhoto,
} from "~/services/listing-photos.server";
import type {
  BodyType,
  Condition,
  Country,
  Currency,
  Drivetrain,
  FuelType,
  Transmission,
} from "~/utils/listing-fields";
import {
  FILTER_KEYS,
  listingSearchSchema,
  type ListingFilters,
  type ListingInput,
} from "~/utils/schemas/listings";

export const PAGE_SIZE = 24;

export class ListingLimitError extends Error {
  constructor(readonly allowance: ListingAllowance) {
    super(
      "Posting Limit Reached: You've used your 3 free listings. Upgrade to a membership to post more vehicles.",
    );
  }
}

export type ListingCard = {
  id: string;
  title: string;
  price: string;
  currency: Currency;
  condition: Condition;
  year: number;
  make: string;
  model: string;
  mileage: number | null;
  bodyType: BodyType | null;
  city: string;
  state: string | null;
  country: Country;
  featured: boolean;
  createdAt: string;
  imageUrl: string | null;
  isFavorite: boolean;
};

/** Counting stops here: beyond it the page says "10,000+" (exact counts of huge sets cost a scan). */
export const COUNT_CAP = 10_000;

export type ListingPage = {
  listings: ListingCard[];
  /** Matches, up to COUNT_CAP. */
  total: number;
  /** True when there are more than COUNT_CAP matches. */
  totalCapped: boolean;
  nextCursor: string | null;
};

type CardRow = Omit<ListingCard, "createdAt" | "id"> & {
  id: string;
  created_at: Date;
  created_at_text: string;
};

/** Escapes LIKE wildcards so a user's "%" or "_" match themselves. */
function likePattern(word: string) {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function encodeCursor(createdAtText: string, id: string) {
  return Buffer.from(`${createdAtText}|${id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string | null | undefined): { at: string; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!at || !id || !/^\d{1,19}$/.test(id) || Number.isNaN(Date.parse(at))) return null;
  return { at, id };
}

/** The WHERE clause for active listings matching `filters`; every part is a bound parameter. */
function filterClause(filters: ListingFilters, bind: unknown[]) {
  const where = ["l.status = 'active'"];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  if (filters.search) {
    // Every word must appear somewhere in title, make, model or description (trigram index).
    const words = filters.search.split(/\s+/).filter(Boolean).slice(0, 6);
    for (const word of words) {
      where.push(
        `(l.title || ' ' || l.make || ' ' || l.model || ' ' || l.description) ILIKE ${param(likePattern(word))}`,
      );
    }
  }
  if (filters.make) where.push(`lower(l.make) = lower(${param(filters.make)})`);
  if (filters.model) where.push(`lower(l.model) = lower(${param(filters.model)})`);
  let { yearMin, yearMax } = filters;
  if (yearMin !== undefined && yearMax !== undefined && yearMin > yearMax)
    [yearMin, yearMax] = [yearMax, yearMin];
  if (yearMin !== undefined) where.push(`l.year >= ${param(yearMin)}`);
  if (yearMax !== undefined) where.push(`l.year <= ${param(yearMax)}`);
  if (filters.priceMin) where.push(`l.price >= ${param(filters.priceMin)}::numeric`);
  if (filters.priceMax) where.push(`l.price <= ${param(filters.priceMax)}::numeric`);
  if (filters.country) where.push(`l.country = ${param(filters.country)}`);
  if (filters.state) where.push(`lower(l.state) = lower(${param(filters.state)})`);
  if (filters.city) where.push(`lower(l.city) = lower(${param(filters.city)})`);
  if (filters.condition) where.push(`l.condition = ${param(filters.condition)}`);
  if (filters.bodyType) where.push(`l.body_type = ${param(filters.bodyType)}`);
  return where;
}

/** Active listings matching `filters`, newest first, one keyset page at a time. */
export async function searchListings(
  filters: ListingFilters,
  options: { cursor?: string | null; limit?: number; viewerId?: string | null } = {},
): Promise<ListingPage> {
  const limit = Math.min(Math.max(options.limit ?? PAGE_SIZE, 1), 100);
  const countBind: unknown[] = [];
  const countWhere = filterClause(filters, countBind);

  const bind: unknown[] = [];
  const where = filterClause(filters, bind);
  const cursor = decodeCursor(options.cursor);
  if (cursor) {
    bind.push(cursor.at, cursor.id);
    where.push(
      `(l.created_at, l.id) < ($${bind.length - 1}::timestamptz, $${bind.length}::bigint)`,
    );
  }
  bind.push(options.viewerId ?? null);
  const viewer = `$${bind.length}::uuid`;
  bind.push(limit + 1);

  const [rows, [count]] = await Promise.all([
    sequelize.query<CardRow>(
      `SELECT l.id, l.title, l.price, l.currency, l.condition, l.year, l.make, l.model, l.mileage,
              l.body_type AS "bodyType", l.city, l.state, l.country, l.featured, l.created_at,
              l.created_at::text AS created_at_text,
              (SELECT p.thumbnail_url FROM listing_photos p
                WHERE p.listing_id = l.id ORDER BY p.position LIMIT 1) AS "imageUrl",
              (${viewer} IS NOT NULL AND EXISTS (SELECT 1 FROM listing_favorites f
                WHERE f.listing_id = l.id AND f.user_id = ${viewer})) AS "isFavorite"
         FROM listings l
        WHERE ${where.join(" AND ")}
        ORDER BY l.created_at DESC, l.id DESC
        LIMIT $${bind.length}`,
      { bind, type: QueryTypes.SELECT },
    ),
    sequelize.query<{ total: string }>(
      `SELECT count(*) AS total FROM (SELECT 1 FROM listings l
         WHERE ${countWhere.join(" AND ")} LIMIT ${COUNT_CAP + 1}) matches`,
      { bind: countBind, type: QueryTypes.SELECT },
    ),
  ]);

  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    listings: page.map(({ created_at, created_at_text: _text, ...row }) => ({
      ...row,
      id: String(row.id),
      createdAt: created_at.toISOString(),
    })),
    total: Math.min(Number(count.total), COUNT_CAP),
    totalCapped: Number(count.total) > COUNT_CAP,
    nextCursor: rows.length > limit && last ? encodeCursor(last.created_at_text, last.id) : null,
  };
}

/** Only the non-empty community parameters of a query string (SPEC.md §7). */
export function parseListingFilters(
  params: URLSearchParams,
): { ok: true; filters: ListingFilters } | { ok: false; errors: Record<string, string> } {
  const raw: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) raw[key] = value;
  }
  const parsed = listingSearchSchema.safeParse(raw);
  if (parsed.success) return { ok: true, filters: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    errors[String(issue.path[0])] = `Invalid ${String(issue.path[0])}`;
  }
  return { ok: false, errors };
}

/**
 * The page's reading of a query string: a value that does not parse (a typo in a shared link) is
 * dropped rather than failing the whole search, and reported so the page can say so.
 */
export function lenientListingFilters(params: URLSearchParams) {
  const result = parseListingFilters(params);
  if (result.ok) return { filters: result.filters, ignored: [] as string[] };
  const cleaned = new URLSearchParams(params);
  for (const key of Object.keys(result.errors)) cleaned.delete(key);
  const again = parseListingFilters(cleaned);
  return {
    filters: again.ok ? again.filters : ({} as ListingFilters),
    ignored: Object.keys(result.errors),
  };
}

/** GET /api/vehicles with the community query set: the listings, or the invalid parameters. */
export async function searchListingsFromQuery(url: URL, viewerId?: string | null) {
  const parsed = parseListingFilters(url.searchParams);
  if (!parsed.ok) return parsed;
  const page = await searchListings(parsed.filters, {
    cursor: url.searchParams.get("cursor"),
    limit: Number(url.searchParams.get("limit")) || PAGE_SIZE,
    viewerId,
  });
  return { ok: true as const, filters: parsed.filters, page };
}

/** True when the query string carries any community parameter (vs. the auction set). */
export function isCommunityQuery(params: URLSearchParams) {
  return (
    [
      "search",
      "yearMin",
      "yearMax",
      "priceMin",
      "priceMax",
      "country",
      "state",
      "city",
      "condition",
      "bodyType",
    ] as const
  ).some((key) => params.has(key));
}

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

export type ListingDetail = Omit<ListingCard, "imageUrl"> & {
  description: string;
  fuelType: FuelType | null;
  transmission: Transmission | null;
  drivetrain: Drivetrain | null;
  exteriorColor: string | null;
  interiorColor: string | null;
  zipCode: string | null;
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

export class ListingNotFoundError extends Error {}

async function changeOwned(
  userId: string,
  rawId: string | undefined,
  change: (listing: Listing, transaction: Transaction) => Promise<void>,
) {
  const id = parseId(rawId);
  if (!id) throw new ListingNotFoundError("Listing not found");
  return sequelize.transaction(async (transaction) => {
    const listing = await Listing.findOne({
      where: { id, userId },
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!listing || listing.status === "deleted")
      throw new ListingNotFoundError("Listing not found");
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
  if (!(await listingForEdit(userId, rawId))) throw new ListingNotFoundError("Listing not found");
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
  if (!id) throw new ListingNotFoundError("Listing not found");
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
    if (!visible) throw new ListingNotFoundError("Listing not found");
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
