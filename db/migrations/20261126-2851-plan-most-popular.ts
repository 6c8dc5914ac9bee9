import type { Migration } from "../migrator";

// One plan may carry the "Most Popular" ribbon: a flag on the plan, at most one active plan with
// it (docs/decisions/2851-memberships-trial-and-one-popular-plan.md). A database seeded before
// this gets the flag on its monthly Pro plan, the one the demo data means.
export const up: Migration = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE membership_plans ADD COLUMN most_popular boolean NOT NULL DEFAULT false;
    CREATE UNIQUE INDEX membership_plans_one_most_popular_idx ON membership_plans ((true))
      WHERE most_popular AND active;
    UPDATE membership_plans SET most_popular = true WHERE code = 'pro-monthly' AND active;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query(`
    DROP INDEX IF EXISTS membership_plans_one_most_popular_idx;
    ALTER TABLE membership_plans DROP COLUMN IF EXISTS most_popular;
  `);
};
