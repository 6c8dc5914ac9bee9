// The yards lots sit in and what a gate pass names of them: street, hours, phone (record 3314).
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";

export type Yard = {
  name: string;
  street: string | null;
  city: string;
  state: string;
  zip: string | null;
  phone: string | null;
  hours: string | null;
};

/** The yard a lot names, or null when the yard is not known. */
export async function findYard(auctionHouse: string, name: string | null): Promise<Yard | null> {
  if (!name) return null;
  const [row] = await sequelize.query<Yard>(
    `SELECT name, street, city, state, zip, phone, hours FROM yards
      WHERE auction_house = :auctionHouse AND name = :name`,
    { replacements: { auctionHouse, name }, type: QueryTypes.SELECT },
  );
  return row ?? null;
}

/**
 * Records each yard a feed's lots name that is not known yet, with the lot's city, state and
 * ZIP; a known yard (its street, hours and phone) is left as it is.
 */
export async function recordFeedYards(
  rows: Array<Record<string, unknown>>,
  transaction?: Transaction,
) {
  const yards = rows.filter((row) => typeof row.yard_name === "string" && row.yard_name !== "");
  if (yards.length === 0) return;
  await sequelize.query(
    `INSERT INTO yards (auction_house, name, city, state, zip)
     SELECT DISTINCT ON (auction_house, yard_name) auction_house, yard_name, location_city,
            location_state, location_zip
       FROM jsonb_to_recordset(:rows::jsonb)
         AS r(auction_house text, yard_name text, location_city text, location_state text,
              location_zip text)
     ON CONFLICT (auction_house, name) DO NOTHING`,
    { replacements: { rows: JSON.stringify(yards) }, transaction },
  );
}
