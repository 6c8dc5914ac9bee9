import type { Migration } from "../migrator";

// The leader rule (docs/decisions/2702): a leader never bids against themselves. A new bid from
// the lot's current high bidder only raises their maximum, to the larger of its amount and its
// maximum; the price, the bid count, the end (no soft-close extension), the history and what
// every other bidder sees stay as they are. A new maximum that is not above the standing one is
// refused ('not_higher', with the standing maximum in `minimum`).
//
// The raise is kept as a bids row marked max_raise: the resolution already takes each bidder's
// standing maximum from their typed rows (NOT automatic), so the raise counts there, with its own
// id for the tie-break (an earlier maximum wins a tie). Visible history, the bid count and
// "the highest bid is the price" are about the other rows: max_raise rows are left out of them.
//
// This migration also redefined place_bid for the rule; place_bid now lives in
// db/functions/020-place-bid.sql, applied after the migrations (docs/decisions/3601), so the
// migration keeps only the column.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE bids ADD COLUMN max_raise boolean NOT NULL DEFAULT false,
      ADD CONSTRAINT bids_max_raise_typed_check CHECK (NOT (max_raise AND automatic));
  `);
};

export const down: Migration = async ({ context }) => {
  // a raise lives only in its row and the lot's high_max: put each leader's maximum back to
  // their highest remaining typed bid, then drop the rows and the column
  await context.sequelize.query(`
    UPDATE lots l SET high_max = (SELECT max(b.max_amount) FROM bids b
                                   WHERE b.lot_id = l.id AND b.user_id = l.high_bidder_id
                                     AND NOT b.automatic AND NOT b.max_raise)
     WHERE EXISTS (SELECT 1 FROM bids b WHERE b.lot_id = l.id AND b.max_raise);
    DELETE FROM bids WHERE max_raise;
    ALTER TABLE bids DROP CONSTRAINT IF EXISTS bids_max_raise_typed_check,
      DROP COLUMN IF EXISTS max_raise;
  `);
};
