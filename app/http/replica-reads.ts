/**
 * A route's `handle` when its loader may be served from a read replica outside the primary region
 * (docs/decisions/3701): it writes nothing, and what it shows of the reader's own writes is
 * waited for. Every other route, and every action, is answered in the primary region.
 */
export const replicaReads = { reads: "replica" } as const;

/**
 * A route served from the replica to people who are not signed in (no session cookie), and in the
 * primary region to those who are: the home page, a landing page for visitors and, for people
 * signed in, a dashboard that records their first visit.
 */
export const replicaReadsSignedOut = { reads: "replica-signed-out" } as const;
