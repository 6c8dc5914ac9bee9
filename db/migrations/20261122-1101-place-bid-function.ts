import type { Migration } from "../migrator";

// This migration defined the first place_bid, the bid in one call (docs/decisions/1101). The
// database's functions now live in db/functions, one file each, applied after the migrations
// (docs/decisions/3601): place_bid is db/functions/020-place-bid.sql. A migration that only defined
// a function does nothing any more (its text is in git's history), so a database brought up from
// empty gets exactly the files' definitions, and no migration imports another.
export const up: Migration = async () => undefined;

export const down: Migration = async () => undefined;
