// What the carrier that claimed a job needs at the yard's gate and at the door (record 3531): the
// yard's street, hours and phone, the delivery address, and the buyer's release naming the
// carrier. Only that carrier reads them; anyone else gets "not found". The buyer's e-mail and
// phone are never part of them (record 3530).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { findYard, type Yard } from "~/services/auctions/yards.server";
import { AffiliateError } from "./applications.server";
import { ORDER_NOT_FOUND } from "./messages";

export type PickupPapers = {
  orderId: string;
  status: string;
  vehicleLabel: string;
  serviceType: "shipping" | "export";
  pickupYard: string | null;
  pickupPlace: string;
  yard: Yard | null;
  /** Where the vehicle goes: the street when the buyer gave one, then ZIP, city and state. */
  delivery: { street: string | null; zip: string | null; city: string; state: string } | null;
  exportPort: string | null;
  destinationCountry: string | null;
  carrierName: string;
  claimedAt: string | null;
  /** The buyer's release, once the purchase is paid; null for a job BidYard staff created. */
  release: {
    pickupCode: string;
    vin: string;
    lot: string;
    buyerFirstName: string;
  } | null;
};

type Row = {
  id: string;
  status: string;
  service_type: "shipping" | "export";
  vehicle_label: string;
  pickup_yard: string | null;
  pickup_city: string;
  pickup_state: string;
  delivery_street: string | null;
  delivery_zip: string | null;
  delivery_city: string | null;
  delivery_state: string | null;
  export_port: string | null;
  export_port_state: string | null;
  destination_country: string | null;
  claimed_at: Date | null;
  order_house: string | null;
  company_name: string | null;
  lot_house: string | null;
  lot_yard: string | null;
  lot_number: string | null;
  vin: string | null;
  purchase_status: string | null;
  pickup_code: string | null;
  buyer_first_name: string | null;
};

/** The pickup papers of `orderId` for `carrierId`, which must be the carrier that claimed it. */
export async function pickupPapersFor(orderId: string, carrierId: string): Promise<PickupPapers> {
  if (!/^\d{1,18}$/.test(orderId)) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const [row] = await sequelize.query<Row>(
    `SELECT s.id::text AS id, s.status, s.service_type, s.vehicle_label, s.pickup_yard,
            s.pickup_city, s.pickup_state, s.delivery_street, s.delivery_zip, s.delivery_city,
            s.delivery_state, s.export_port, s.export_port_state, s.destination_country,
            s.claimed_at, s.auction_house AS order_house, a.company_name,
            l.auction_house AS lot_house, l.yard_name AS lot_yard, l.lot_number, l.vin,
            p.status AS purchase_status, p.pickup_code, u.first_name AS buyer_first_name
       FROM service_orders s
       LEFT JOIN affiliate_applications a ON a.user_id = s.claimed_by
       LEFT JOIN lots l ON l.id = s.lot_id
       LEFT JOIN purchases p ON p.id = s.purchase_id
       LEFT JOIN users u ON u.id = s.requested_by
      WHERE s.id = :orderId AND s.claimed_by = :carrierId`,
    { replacements: { orderId, carrierId }, type: QueryTypes.SELECT },
  );
  if (!row) throw new AffiliateError(404, ORDER_NOT_FOUND);
  const house = row.lot_house ?? row.order_house;
  const yard = house ? await findYard(house, row.lot_yard ?? row.pickup_yard) : null;
  const houseName = house === "iaai" ? "IAAI" : house === "copart" ? "Copart" : "";
  return {
    orderId: row.id,
    status: row.status,
    vehicleLabel: row.vehicle_label,
    serviceType: row.service_type,
    pickupYard: row.pickup_yard,
    pickupPlace: `${row.pickup_city}, ${row.pickup_state}`,
    yard,
    delivery:
      row.service_type === "shipping" && row.delivery_city && row.delivery_state
        ? {
            street: row.delivery_street,
            zip: row.delivery_zip,
            city: row.delivery_city,
            state: row.delivery_state,
          }
        : null,
    exportPort: row.export_port ? `${row.export_port}, ${row.export_port_state}` : null,
    destinationCountry: row.destination_country,
    carrierName: row.company_name ?? "Your company",
    claimedAt: row.claimed_at?.toISOString() ?? null,
    release:
      row.purchase_status === "paid" && row.pickup_code
        ? {
            pickupCode: row.pickup_code,
            vin: row.vin ?? "",
            lot: `${houseName} ${row.lot_number ?? ""}`.trim(),
            buyerFirstName: row.buyer_first_name?.trim() || "The buyer",
          }
        : null,
  };
}

/**
 * The carrier a buyer's paid purchase is released to: the company of the provider that claimed
 * its transport job (and has not finished it), or null.
 */
export async function carrierForPurchase(purchaseId: string) {
  const [row] = await sequelize.query<{ company_name: string }>(
    `SELECT a.company_name FROM service_orders s
       JOIN affiliate_applications a ON a.user_id = s.claimed_by
      WHERE s.purchase_id = :purchaseId AND s.status IN ('claimed', 'in_progress', 'completed')
      ORDER BY s.claimed_at DESC LIMIT 1`,
    { replacements: { purchaseId }, type: QueryTypes.SELECT },
  );
  return row?.company_name ?? null;
}
