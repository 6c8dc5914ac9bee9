import type { Migration } from "../migrator";

// This migration defined deposit_exposure (what a deposit holds) and the place_bid that calls it
// (docs/decisions/1101). Both now live in db/functions (010-deposit-exposure.sql,
// 020-place-bid.sql), applied after the migrations (docs/decisions/3601); this one does nothing.
export const up: Migration = async () => undefined;

export const down: Migration = async () => undefined;
