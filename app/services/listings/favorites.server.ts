// A person's favourite community listings, newest favourite first (the /favorites page).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { ListingCard } from "./search.server";

/** Favourites one page shows; a person rarely keeps more. */
export const FAVORITES_SHOWN = 200;

export type FavoriteCard = ListingCard & { sold: boolean };

export async function listFavorites(userId: string): Promise<FavoriteCard[]> {
  const rows = await sequelize.query<Omit<FavoriteCard, "createdAt"> & { createdAt: Date }>(
    `SELECT l.id::text AS id, l.title, l.price, l.currency, l.condition, l.year, l.make, l.model,
            l.mileage, l.body_type AS "bodyType", l.city, l.state, l.country, l.featured,
            l.created_at AS "createdAt", true AS "isFavorite", l.status = 'sold' AS sold,
            (SELECT p.thumbnail_url FROM listing_photos p
              WHERE p.listing_id = l.id ORDER BY p.position LIMIT 1) AS "imageUrl",
            (SELECT u.verified FROM users u WHERE u.id = l.user_id) AS "sellerVerified"
       FROM listing_favorites f JOIN listings l ON l.id = f.listing_id
      WHERE f.user_id = :userId AND l.status <> 'deleted'
      ORDER BY f.created_at DESC, l.id DESC
      LIMIT ${FAVORITES_SHOWN}`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
