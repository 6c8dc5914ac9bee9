import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { EarlyAccessInput } from "~/services/accounts/early-access.schemas";

/** Adds the e-mail to the pre-launch list; a second signup of the same e-mail changes nothing. */
export async function joinEarlyAccess(
  input: EarlyAccessInput,
  source = "website",
): Promise<"joined" | "already-joined"> {
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO prelaunch_signups (email, first_name, last_name, source)
     VALUES (:email, :firstName, :lastName, :source)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING id`,
    {
      replacements: {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        source,
      },
      type: QueryTypes.SELECT,
    },
  );
  return rows.length > 0 ? "joined" : "already-joined";
}
