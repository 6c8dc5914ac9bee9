import { sequelize } from "~/models/db.server";

/** How long lot events are kept for reconnecting browsers; one further behind gets the state. */
export const LOT_EVENTS_KEPT_MS = 60 * 60 * 1000;

/** Drops lot events older than LOT_EVENTS_KEPT_MS (the prunes job runs it once a minute). */
export async function pruneLotEvents(keptMs = LOT_EVENTS_KEPT_MS) {
  const [, result] = await sequelize.query(
    "DELETE FROM lot_events WHERE created_at < now() - make_interval(secs => :seconds)",
    { replacements: { seconds: keptMs / 1000 } },
  );
  return (result as { rowCount?: number })?.rowCount ?? 0;
}
