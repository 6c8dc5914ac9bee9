/**
 * The registration form marks its submissions (to /register, or an older GET to /api/login) with
 * `from=register`. In a module of its own so the form can use it without loading zod on every
 * page (docs/decisions/1912).
 */
export const REGISTRATION_MARKER = { name: "from", value: "register" } as const;
