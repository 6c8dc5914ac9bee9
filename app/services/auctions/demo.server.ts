// Demo auctions that never run dry (docs/decisions/2755). In development and on staging, a demo
// lot ends every few minutes: the demo_auctions job (every minute) plans the next half hour on a fixed grid
// (:00, :05, :10, …) and, for each grid time no open demo lot ends at, reopens an ended demo lot
// that never had a bid, or lists a copy of a sold one. Only lots marked `demo` are touched. An
// admin can also end a demo lot at once, where test payments are allowed.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { now } from "~/platform/clock.server";
import { testPaymentsAllowed } from "~/platform/payments/index.server";
import { recordAdminAction } from "~/services/admin/audit.server";
import { closeLotIfEnded } from "~/services/auctions/closer.server";
import { UserError } from "~/utils/user-error";

/** A demo lot ends at every multiple of this. */
export const DEMO_SPACING_MS = 5 * 60_000;
/** How far ahead the grid is kept filled. */
export const DEMO_HORIZON_MS = 30 * 60_000;
/** A relisted lot is open this long before its end (a live lot, not "starting soon"). */
const OPEN_FOR_MS = 24 * 60 * 60_000;
const DEMO_LOCK = 2_755_001;

/** The grid times in (at, at + horizon]: where a demo lot should end. */
export function demoSlots(at: Date, spacingMs = DEMO_SPACING_MS, horizonMs = DEMO_HORIZON_MS) {
  const first = Math.floor(at.getTime() / spacingMs) * spacingMs + spacingMs;
  const slots: Date[] = [];
  for (let t = first; t <= at.getTime() + horizonMs; t += spacingMs) slots.push(new Date(t));
  return slots;
}

const COPY_COLUMNS = `auction_house, vin, year, make, model, trim_level, body_style, color,
  location_city, location_state, location_zip, yard_name, damage_type, primary_damage,
  secondary_damage, title_state, title_type, odometer, runs_drives, has_keys, estimated_value,
  repair_cost, image_urls, run_condition, odometer_brand, condition_code, item_number, grid_row`;

/**
 * Opens one demo lot to end at `slot`: an ended demo lot that never had a bid (nor a purchase),
 * reopened in place; else a copy of a sold demo lot under a new lot number. Null when there is
 * nothing to relist.
 */
async function relistOne(slot: Date, at: Date, transaction: Transaction) {
  // "opened a day ago": a live lot, not one starting soon
  const startsAt = new Date(Math.min(at.getTime(), slot.getTime() - OPEN_FOR_MS));
  const [reopened] = await sequelize.query<{ id: string }>(
    `UPDATE lots SET status = 'active', closed_at = NULL, starts_at = :startsAt, ends_at = :slot,
            updated_at = now()
      WHERE id = (SELECT l.id FROM lots l
                   WHERE l.demo AND l.status = 'unsold' AND l.bid_count = 0
                     AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.lot_id = l.id)
                   ORDER BY l.closed_at NULLS FIRST, l.id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id::text AS id`,
    { replacements: { slot, startsAt }, type: QueryTypes.SELECT, transaction },
  );
  if (reopened) return reopened.id;
  // "D" + the slot (yyMMddHHmm) + "-" + the second it was planned: at most 14 characters
  const number = `D${slot.toISOString().replace(/\D/g, "").slice(2, 12)}-${String(at.getUTCSeconds()).padStart(2, "0")}`;
  const [copied] = await sequelize.query<{ id: string }>(
    `INSERT INTO lots (lot_number, demo, starts_at, ends_at, ${COPY_COLUMNS})
     SELECT :number, true, :startsAt, :slot, ${COPY_COLUMNS}
       FROM lots l WHERE l.demo AND l.status = 'sold'
      ORDER BY random() LIMIT 1
     ON CONFLICT (auction_house, lot_number) DO NOTHING
     RETURNING id::text AS id`,
    { replacements: { number, slot, startsAt }, type: QueryTypes.SELECT, transaction },
  );
  return copied?.id ?? null;
}

/**
 * Fills the next half hour's grid with demo lots; one instance at a time (an advisory lock).
 * Answers the ids of the lots it opened.
 */
export async function keepDemoAuctionsRunning(at = now()) {
  return sequelize.transaction(async (transaction) => {
    const [{ locked }] = await sequelize.query<{ locked: boolean }>(
      "SELECT pg_try_advisory_xact_lock(:key) AS locked",
      { replacements: { key: DEMO_LOCK }, type: QueryTypes.SELECT, transaction },
    );
    if (!locked) return [];
    const slots = demoSlots(at);
    const ending = await sequelize.query<{ ends_at: Date }>(
      `SELECT ends_at FROM lots WHERE demo AND status = 'active' AND ends_at > :at
         AND ends_at <= :until`,
      {
        replacements: { at, until: slots.at(-1) ?? at },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const ends = ending.map((row) => new Date(row.ends_at).getTime());
    const opened: string[] = [];
    for (const slot of slots) {
      // a slot is covered by a lot ending in the spacing before it (the seed's lots end anywhere)
      const from = slot.getTime() - DEMO_SPACING_MS;
      if (ends.some((end) => end > from && end <= slot.getTime())) continue;
      const id = await relistOne(slot, at, transaction);
      if (!id) break; // nothing left to relist
      opened.push(id);
      ends.push(slot.getTime());
    }
    return opened;
  });
}

export class DemoLotError extends UserError {}

/** Whether this lot may be ended at once by an admin: a demo lot, where test payments run. */
export async function canEndNow(lotId: string) {
  if (!testPaymentsAllowed() || !/^\d{1,18}$/.test(lotId)) return false;
  const rows = await sequelize.query(
    "SELECT 1 FROM lots WHERE id = :lotId AND demo AND status = 'active'",
    { replacements: { lotId }, type: QueryTypes.SELECT },
  );
  return rows.length > 0;
}

/**
 * Ends an open demo lot now and closes it as the closer would (sold with its invoice and e-mails,
 * or unsold); audited. Refused for any other lot, and where test payments are not allowed.
 */
export async function endDemoLotNow(admin: Pick<User, "id" | "email">, lotId: string) {
  if (!testPaymentsAllowed())
    throw new DemoLotError("Ending lots early is only for test environments.", { status: 403 });
  if (!/^\d{1,18}$/.test(lotId))
    throw new DemoLotError("This auction lot does not exist.", { status: 404 });
  const at = now();
  const ended = await sequelize.transaction(async (transaction) => {
    const [lot] = await sequelize.query<{
      id: string;
      demo: boolean;
      status: string;
      ends_at: Date;
    }>("SELECT id, demo, status, ends_at FROM lots WHERE id = :lotId FOR UPDATE", {
      replacements: { lotId },
      type: QueryTypes.SELECT,
      transaction,
    });
    if (!lot) throw new DemoLotError("This auction lot does not exist.", { status: 404 });
    if (!lot.demo)
      throw new DemoLotError("Only demo lots can be ended early; this is a real lot.", {
        status: 403,
      });
    if (lot.status !== "active")
      throw new DemoLotError("This lot has already ended.", { status: 409 });
    await sequelize.query(
      `UPDATE lots SET starts_at = least(starts_at, :before), ends_at = :at, updated_at = now()
        WHERE id = :lotId`,
      { replacements: { lotId, at, before: new Date(at.getTime() - 1000) }, transaction },
    );
    await recordAdminAction(
      admin,
      "lots.ended_now",
      { type: "lot", id: lotId },
      {
        before: { endsAt: new Date(lot.ends_at).toISOString() },
        after: { endsAt: at.toISOString() },
      },
      transaction,
    );
    return lot.id;
  });
  const outcome = await closeLotIfEnded(ended);
  if (outcome) return outcome;
  // the lot's close job, moved to its new end by the update above, may have closed it first
  // (docs/decisions/3561): the outcome is then what that close made of it
  const [closed] = await sequelize.query<{ status: string }>(
    "SELECT status FROM lots WHERE id = :lotId",
    { replacements: { lotId: ended }, type: QueryTypes.SELECT },
  );
  return closed?.status === "sold" ? ("sold" as const) : ("unsold" as const);
}
