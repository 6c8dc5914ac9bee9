import type { Migration } from "../migrator";

// Buying power as the Terms define it (docs/decisions/3510): what a deposit holds counts the whole
// total of each unpaid invoice, late fee included once it is past due at the caller's clock. That
// made deposit_exposure a three-argument function (p_at) and place_bid pass the bid's time on.
//
// Both now live in db/functions (010-deposit-exposure.sql, 020-place-bid.sql), applied after the
// migrations (docs/decisions/3601). What stays here is the one change a file cannot make: the old
// two-argument deposit_exposure is dropped, since beside the three-argument one it would make every
// two-argument call ambiguous. `down` leaves the functions to the files.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query("DROP FUNCTION IF EXISTS deposit_exposure(uuid, bigint);");
};

export const down: Migration = async () => undefined;
