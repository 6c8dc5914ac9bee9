import type { Migration } from "../migrator";

// Each claim of outbox rows gets its own token; a worker renews its claim before each send and
// settles a row only while the token is still its own, so a row another worker took over after
// the first one's claim ran out is never sent by both (docs/decisions/2151-mail-outbox.md).
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE mail_outbox ADD COLUMN claim_token uuid;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("ALTER TABLE mail_outbox DROP COLUMN IF EXISTS claim_token;");
};
