// Demo yards with what a gate pass names (docs/decisions/3314): a street, opening hours and a
// phone for each seeded yard, as both houses name them. The numbers are 555-01xx, which are
// reserved for fiction; the streets are made up.
import { sequelize } from "../../app/models/db.server";
import { YARDS } from "./lot-catalog";
import type { SeedOptions } from "./index";

const STREETS = ["Salvage Way", "Auction Drive", "Industrial Blvd", "Commerce St", "Yard Road"];
const COPART_HOURS = "Mon–Fri 8:00 AM – 4:00 PM (pickup until 3:30 PM)";
const IAAI_HOURS = "Mon–Fri 8:00 AM – 4:30 PM";

export function demoYards() {
  return YARDS.flatMap((yard, i) => {
    const street = (n: number) => `${1000 + ((i * 379 + n * 211) % 8000)} ${STREETS[(i + n) % 5]}`;
    const phone = (n: number) =>
      `(${200 + ((i * 37) % 700)}) 555-01${String((i * 2 + n) % 100).padStart(2, "0")}`;
    const place = { city: yard.yardCity ?? yard.city, state: yard.state, zip: yard.zip };
    return [
      {
        auction_house: "copart",
        name: yard.copart,
        street: street(0),
        phone: phone(0),
        hours: COPART_HOURS,
        ...place,
      },
      // the e2e arrangements and older demo rows name Copart yards "Copart <city>"
      {
        auction_house: "copart",
        name: `Copart ${yard.city}`,
        street: street(0),
        phone: phone(0),
        hours: COPART_HOURS,
        ...place,
      },
      {
        auction_house: "iaai",
        name: yard.iaai,
        street: street(1),
        phone: phone(1),
        hours: IAAI_HOURS,
        ...place,
      },
    ];
  });
}

export async function seedYards({ log }: SeedOptions) {
  const yards = demoYards();
  await sequelize.query(
    `INSERT INTO yards (auction_house, name, street, city, state, zip, phone, hours)
     SELECT auction_house, name, street, city, state, zip, phone, hours
       FROM jsonb_to_recordset(:rows::jsonb)
         AS r(auction_house text, name text, street text, city text, state text, zip text,
              phone text, hours text)
     ON CONFLICT (auction_house, name) DO UPDATE SET street = EXCLUDED.street,
       phone = EXCLUDED.phone, hours = EXCLUDED.hours, updated_at = now()
       WHERE yards.street IS NULL`,
    { replacements: { rows: JSON.stringify(yards) } },
  );
  log(`yards: ${yards.length} demo yards with street, hours and phone`);
}
