import type { Migration } from "../migrator";

// This migration defined place_bid_in_session, the session, the bid limiter and the bid in one
// call (docs/decisions/1903). It now lives in db/functions/030-place-bid-in-session.sql, applied
// after the migrations (docs/decisions/3601); this one does nothing.
export const up: Migration = async () => undefined;

export const down: Migration = async () => undefined;
