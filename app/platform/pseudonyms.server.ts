// Public names that stand for a user without giving their id away: keyed with a server secret,
// so nobody can compute them from ids, or go back (docs/decisions/1303-keyed-public-pseudonyms.md).
import { createHmac } from "node:crypto";
import { env } from "~/platform/env.server";

let cached: { secret: string; key: Buffer } | undefined;

function pseudonymKey() {
  const secret = env().SESSION_SECRETS[0];
  if (cached?.secret !== secret) {
    cached = { secret, key: createHmac("sha256", secret).update("bidyard-pseudonyms").digest() };
  }
  return cached.key;
}

function digest(parts: string[]) {
  return createHmac("sha256", pseudonymKey()).update(parts.join("\n")).digest();
}

/** A number from 1000 to 9999 for these parts (e.g. a lot and a bidder). */
export function pseudonymNumber(...parts: string[]) {
  return 1000 + (digest(parts).readUInt32BE(0) % 9000);
}

/** A seller's public handle: the same on all their listings, never their user id. */
export function sellerHandle(userId: string) {
  return `seller-${digest(["seller", userId]).subarray(0, 6).toString("hex")}`;
}
