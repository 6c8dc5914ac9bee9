// Arranges rows for the screen-wide e2e checks (a11y, keyboard): lots, orders, affiliates, KYC.
import { ensureUser, query } from "./db";

const VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";

/** Short, unique, safe in lot numbers, e-mails and labels. */
export function tag() {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

function vin() {
  return Array.from({ length: 17 }, () => VIN_CHARS[Math.floor(Math.random() * 33)]).join("");
}

/** A live Copart lot ending tomorrow (or `endsIn` from now), with one picture. */
export async function createLot(
  fields: { model?: string; startsIn?: string; endsIn?: string } = {},
) {
  const number = `A${tag()}`.slice(0, 20);
  const rows = await query<{ id: string; vin: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
       location_state, yard_name, damage_type, primary_damage, title_type, estimated_value,
       image_urls, starts_at, ends_at)
     VALUES ('copart', $1, $2, 2019, 'Toyota', $3, 'Dallas', 'TX', 'Copart Dallas', 'collision',
       'FRONT END', 'salvage', 9000, ARRAY['/images/lots/sedan-red.svg'],
       now() + $4::interval, now() + $5::interval)
     RETURNING id, vin`,
    [
      number,
      vin(),
      fields.model ?? "Camry",
      fields.startsIn ?? "-1 hour",
      fields.endsIn ?? "1 day",
    ],
  );
  return rows[0];
}

/** A lot `buyerId` has won and owes for, or (`paid`) has paid for: what transport is asked for. */
export async function createWonLot(buyerId: string, options: { paid?: boolean } = {}) {
  const [lot] = await query<{ id: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style,
       location_city, location_state, yard_name, starts_at, ends_at, status, current_bid,
       high_bidder_id, high_max, closed_at)
     VALUES ('copart', $1, $2, 2018, 'Ford', 'F-150', 'CREW PICKUP', 'Phoenix', 'AZ',
       'Copart Phoenix', now() - interval '2 days', now() - interval '1 hour', 'sold', 5000, $3,
       5000, now())
     RETURNING id`,
    [`W${tag()}`.slice(0, 20), vin(), buyerId],
  );
  await query(
    `INSERT INTO purchases (lot_id, user_id, amount, status, paid_at)
     VALUES ($1, $2, 5000, $3, CASE WHEN $3 = 'paid' THEN now() END)`,
    [lot.id, buyerId, options.paid ? "paid" : "pending"],
  );
  return lot.id;
}

/** An open shipping job on the board, or one claimed by `claimedBy` (an approved affiliate). */
export async function createOrder(label: string, claimedBy?: string) {
  const rows = await query<{ id: string }>(
    `INSERT INTO service_orders (service_type, vehicle_label, vehicle_type, pickup_city,
       pickup_state, pickup_yard, delivery_city, delivery_state, distance_miles, payout, status,
       claimed_by, claimed_at)
     VALUES ('shipping', $1, 'sedan', 'Dallas', 'TX', 'Copart Dallas', 'Houston', 'TX', 252,
       '450.00', $2, $3, $4)
     RETURNING id`,
    [label, claimedBy ? "claimed" : "open", claimedBy ?? null, claimedBy ? new Date() : null],
  );
  return rows[0].id;
}

/** A user with an affiliate application in `status`. */
export async function createAffiliate(
  email: string,
  status: "pending" | "approved" = "approved",
  company = `Carrier ${tag()}`,
) {
  const userId = await ensureUser(email, {
    first_name: "Casey",
    last_name: "Carrier",
    account_type: "affiliate",
  });
  await query(
    `INSERT INTO affiliate_applications (user_id, company_name, service_types, business_phone,
       business_email, service_areas, status, reviewed_at)
     VALUES ($1, $2, ARRAY['shipping', 'export'], '214-555-0100', $3, ARRAY['Texas', 'Oklahoma'],
       $4, $5)
     ON CONFLICT (user_id) DO NOTHING`,
    [userId, company, email, status, status === "pending" ? null : new Date()],
  );
  return userId;
}

/** An ID document waiting for an admin (the stored file itself is not needed to list it). */
export async function createPendingKycDocument(userId: string) {
  const key = `kyc/${userId}/${tag()}`;
  const [upload] = await query<{ id: string }>(
    `INSERT INTO uploads (user_id, purpose, object_key, content_type, size_bytes, status,
       expires_at)
     VALUES ($1, 'kyc_document', $2, 'image/png', 20, 'attached', now() + interval '1 day')
     RETURNING id`,
    [userId, key],
  );
  await query(
    `INSERT INTO kyc_documents (user_id, upload_id, document_type, object_key, content_type,
       size_bytes)
     VALUES ($1, $2, 'passport', $3, 'image/png', 20)`,
    [userId, upload.id, key],
  );
}

/** Removes `userId`'s ID documents, so no other test finds them waiting in the review queue. */
export async function removeKycDocuments(userId: string) {
  const rows = await query<{ upload_id: string }>(
    "DELETE FROM kyc_documents WHERE user_id = $1 RETURNING upload_id",
    [userId],
  );
  await query("DELETE FROM uploads WHERE id = ANY($1::bigint[])", [rows.map((r) => r.upload_id)]);
}

export async function createNotification(
  userId: string,
  title: string,
  fields: { read?: boolean; link?: string } = {},
) {
  await query(
    `INSERT INTO notifications (user_id, kind, title, body, link, read_at)
     VALUES ($1, 'outbid', $2, 'Someone placed a higher bid.', $3, $4)`,
    [userId, title, fields.link ?? null, fields.read ? new Date() : null],
  );
}

/** A community listing owned by `userId`, with the photo of a seeded listing when there is one. */
export async function createListing(userId: string, title: string) {
  const [listing] = await query<{ id: string }>(
    `INSERT INTO listings (user_id, title, description, make, model, year, mileage, price,
       condition, body_type, country, state, city)
     VALUES ($1, $2, 'One owner, full service history.', 'Toyota', 'Corolla', 2018, 64000,
       '12000.00', 'good', 'sedan', 'US', 'TX', 'Austin')
     RETURNING id`,
    [userId, title],
  );
  await query(
    `INSERT INTO listing_photos (listing_id, position, url, thumbnail_url, content_type)
     SELECT $1, 0, url, thumbnail_url, content_type FROM listing_photos LIMIT 1`,
    [listing.id],
  );
  return listing.id;
}
