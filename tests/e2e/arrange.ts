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

/**
 * A yard in Kent, WA (its street, hours and phone on file) and `buyerId`'s paid purchase of a
 * 2017 Honda `model` there, listed under Seattle, released with `pickupCode`: what a carrier's
 * pickup papers and the buyer's release are about.
 */
export async function createPaidLotAtKent(buyerId: string, model: string, pickupCode: string) {
  const t = tag();
  const yardName = `Kent ${t}`;
  await query(
    `INSERT INTO yards (auction_house, name, street, city, state, zip, phone, hours)
     VALUES ('iaai', $1, '22606 68th Ave S', 'Kent', 'WA', '98032', '(253) 555-0190',
             'Mon–Fri 8:00 AM – 4:30 PM')`,
    [yardName],
  );
  const [lot] = await query<{ id: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style,
       location_city, location_state, location_zip, yard_name, starts_at, ends_at, status,
       current_bid, high_bidder_id, high_max, closed_at)
     VALUES ('iaai', $1, '5J6RW2H89HL000000', 2017, 'Honda', $2, '4DR SPOR', 'Seattle', 'WA',
       '98032', $3, now() - interval '2 days', now() - interval '1 hour', 'sold', 4000, $4,
       4000, now())
     RETURNING id`,
    [`K${t}`.slice(0, 12), model, yardName, buyerId],
  );
  const [purchase] = await query<{ id: string }>(
    `INSERT INTO purchases (lot_id, user_id, amount, status, paid_at, pickup_code)
     VALUES ($1, $2, 4000, 'paid', now(), $3) RETURNING id`,
    [lot.id, buyerId, pickupCode],
  );
  return { lotId: lot.id, purchaseId: purchase.id };
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

/**
 * A value of exactly `length` characters with no space to break at: the worst case for a layout
 * (a long surname, a pasted reference). `seed` keeps several apart.
 */
export function longWord(seed: string, length = 100) {
  const base = `${seed}Wolfeschlegelsteinhausenbergerdorff`;
  return base.repeat(Math.ceil(length / base.length)).slice(0, length);
}

/** People, lots, listings, orders and messages whose names and titles are as long as allowed. */
export type LongWorld = Awaited<ReturnType<typeof arrangeLongWorld>>;

/**
 * The layout sweep's data: 100-character names and titles (and the longest the columns take for
 * the rest) on every kind of row a page shows, each person signed in through `ensureUser`.
 */
export async function arrangeLongWorld() {
  const t = tag();
  const email = (who: string) => `${longWord(who, 60).toLowerCase()}.${t}@bidyard.test`;
  const names = (who: string) => ({ first_name: longWord(`${who}F`), last_name: longWord(who) });

  const bidder = email("bidder");
  const bidderId = await ensureUser(bidder, {
    ...names("Bidder"),
    verified: true,
    deposit: "20000.00",
  });
  const unverified = email("new");
  const unverifiedId = await ensureUser(unverified, names("Unverified"));
  await createPendingKycDocument(unverifiedId);
  const admin = email("admin");
  await ensureUser(admin, { ...names("Admin"), role: "admin" });
  const affiliate = email("carrier");
  const affiliateId = await createAffiliate(affiliate, "approved", longWord("Carrier"));
  await query("UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1", [
    affiliateId,
    longWord("CarrierF"),
    longWord("Carrier"),
  ]);
  const pendingAffiliate = email("pending");
  const pendingAffiliateId = await createAffiliate(
    pendingAffiliate,
    "pending",
    longWord("PendingCarrier"),
  );
  await query("UPDATE users SET first_name = $2, last_name = $3 WHERE id = $1", [
    pendingAffiliateId,
    longWord("PendingF"),
    longWord("Pending"),
  ]);

  // A lot with the longest make, model, place and damage the columns take.
  const lotModel = longWord("Model", 60);
  const [lot] = await query<{ id: string; vin: string }>(
    `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, trim_level, body_style,
       color, location_city, location_state, yard_name, damage_type, primary_damage,
       secondary_damage, title_type, estimated_value, image_urls, starts_at, ends_at)
     VALUES ('copart', $1, $2, 2019, $3, $4, $5, $6, $7, $8, 'TX', $9, 'collision', $10, $11,
       'salvage', 9000, ARRAY['/images/lots/sedan-red.svg'], now() - interval '1 hour',
       now() + interval '1 day')
     RETURNING id, vin`,
    [
      `L${t}`.slice(0, 20),
      vin(),
      longWord("Make", 40),
      lotModel,
      longWord("Trim", 80),
      longWord("Body", 60),
      longWord("Color", 40),
      longWord("City", 80),
      longWord("Yard", 80),
      longWord("Front", 60),
      longWord("Rear", 60),
    ],
  );

  // A won, unpaid purchase and a paid one, both of long-named lots.
  const wonLot = async (paid: boolean) => {
    const [row] = await query<{ id: string }>(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, body_style,
         location_city, location_state, yard_name, starts_at, ends_at, status, current_bid,
         high_bidder_id, high_max, closed_at)
       VALUES ('copart', $1, $2, 2018, 'Ford', $3, 'CREW PICKUP', 'Phoenix', 'AZ', $4,
         now() - interval '2 days', now() - interval '1 hour', 'sold', 5000, $5, 5000, now())
       RETURNING id`,
      [`W${tag()}`.slice(0, 20), vin(), lotModel, longWord("Yard", 80), bidderId],
    );
    const [purchase] = await query<{ id: string }>(
      `INSERT INTO purchases (lot_id, user_id, amount, status, paid_at, pickup_code, due_at)
       VALUES ($1, $2, 5000, $3, CASE WHEN $3 = 'paid' THEN now() END,
         CASE WHEN $3 = 'paid' THEN 'LONGPICK' END, now() + interval '3 days')
       RETURNING id`,
      [row.id, bidderId, paid ? "paid" : "pending"],
    );
    return { lotId: row.id, purchaseId: purchase.id };
  };
  const unpaid = await wonLot(false);
  const paid = await wonLot(true);
  const [{ id: requestedOrderId }] = await query<{ id: string }>(
    `INSERT INTO service_orders (service_type, lot_id, purchase_id, requested_by, vehicle_label,
       vehicle_type, pickup_city, pickup_state, pickup_yard, delivery_city, delivery_state,
       distance_miles, payout)
     VALUES ('shipping', $1, $2, $3, $4, 'truck', 'Phoenix', 'AZ', $5, 'Long Beach', 'CA', 380,
       '650.00')
     RETURNING id`,
    [paid.lotId, paid.purchaseId, bidderId, longWord("Vehicle"), longWord("Yard", 80)],
  );
  const openOrderLabel = longWord("OpenOrder");
  const openOrderId = await createOrder(openOrderLabel);
  const claimedOrderId = await createOrder(longWord("ClaimedOrder"), affiliateId);

  // The bidder's own listing, and a seller's listing the bidder writes about.
  const listingTitle = longWord("Title");
  const [{ id: listingId }] = await query<{ id: string }>(
    `INSERT INTO listings (user_id, title, description, make, model, year, mileage, price,
       condition, body_type, country, state, city, exterior_color, interior_color, zip_code)
     VALUES ($1, $2, $3, $4, $5, 2018, 64000, '9999999.99', 'good', 'sedan', 'US', $6, $7, $8, $9,
       'K1A0B1-9999')
     RETURNING id`,
    [
      bidderId,
      listingTitle,
      longWord("Description", 600),
      longWord("Make", 40),
      longWord("Model", 60),
      longWord("State", 60),
      longWord("City", 80),
      longWord("Outside", 40),
      longWord("Inside", 40),
    ],
  );
  const sellerId = await ensureUser(email("seller"), names("Seller"));
  const [{ id: sellerListingId }] = await query<{ id: string }>(
    `INSERT INTO listings (user_id, title, description, make, model, year, mileage, price,
       currency, condition, body_type, country, state, city)
     VALUES ($1, $2, '', 'Toyota', 'Corolla', 2018, 64000, '58500.00', 'MXN', 'good', 'sedan',
       'MX', 'NL', 'Monterrey')
     RETURNING id`,
    [sellerId, longWord("Seller")],
  );
  const [{ id: threadId }] = await query<{ id: string }>(
    `WITH thread AS (
       INSERT INTO message_threads (listing_id, buyer_id, seller_id) VALUES ($1, $2, $3)
       RETURNING id, buyer_id, seller_id)
     INSERT INTO messages (thread_id, sender_id, body)
     SELECT id, s, $4 FROM thread, unnest(ARRAY[buyer_id, seller_id]) AS s
     RETURNING thread_id AS id`,
    [sellerListingId, bidderId, sellerId, longWord("Message", 300)],
  );
  await query(
    `INSERT INTO message_reports (message_id, reporter_id, reason)
     SELECT id, $2, $3 FROM messages WHERE thread_id = $1 AND sender_id <> $2 LIMIT 1`,
    [threadId, bidderId, longWord("Reason", 400)],
  );
  await createNotification(bidderId, longWord("Notification", 200), {
    link: `/auctions/${lot.id}`,
  });
  await query(
    `INSERT INTO saved_searches (user_id, scope, query, label, email)
     VALUES ($1, 'community', $2, $3, true)`,
    [bidderId, `search=${longWord("Search", 90)}`, longWord("Saved", 200)],
  );

  return {
    bidder,
    bidderId,
    unverified,
    unverifiedId,
    admin,
    affiliate,
    pendingAffiliate,
    lot,
    unpaidPurchaseId: unpaid.purchaseId,
    paidPurchaseId: paid.purchaseId,
    requestedOrderId,
    openOrderId,
    openOrderLabel,
    claimedOrderId,
    listingId,
    listingTitle,
    sellerListingId,
    threadId,
  };
}
