/** The session cookie's name: the app reads it, and the edge looks for it (server/regions.ts). */
export const SESSION_COOKIE = "__session";
