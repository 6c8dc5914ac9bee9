// The settings production cannot start without (app/platform/env.server.ts), with made-up values,
// for tests of what production accepts and refuses. Where uploads live is left to each test
// (FILE_STORAGE or S3_BUCKET: docs/decisions/3105).
export const productionSecrets = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://u:p@db.internal:5432/bidyard",
  SESSION_SECRET: "a".repeat(40),
  APP_URL: "https://bidyard.example",
  OIDC_ISSUER: "https://id.example",
  OIDC_CLIENT_ID: "bidyard",
  OIDC_CLIENT_SECRET: "secret",
  PAYPAL_CLIENT_ID: "id",
  PAYPAL_CLIENT_SECRET: "secret",
};
