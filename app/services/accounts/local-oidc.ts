/**
 * The client the app registers at the local development issuer (scripts/local-issuer.ts). Only
 * used when OIDC_ISSUER is unset, which production refuses; these values guard nothing real.
 */
export const LOCAL_OIDC_CLIENT_ID = "bidyard-local";
export const LOCAL_OIDC_CLIENT_SECRET = "bidyard-local-client-secret-for-development-only";
export const LOCAL_OIDC_HOST = "127.0.0.1";
