import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { runHousekeeping } from "~/platform/housekeeping.server";

describe("housekeeping", () => {
  it("runs on one instance at a time", async () => {
    await sequelize.transaction(async (transaction) => {
      await sequelize.query("select pg_advisory_xact_lock(727001)", { transaction });
      expect(await runHousekeeping()).toBe(false);
    });
    expect(await runHousekeeping()).toBe(true);
  });

  it("runs once a minute across machines: a turn soon after another machine's is skipped", async () => {
    // another machine ran it a moment ago
    await sequelize.query(
      `INSERT INTO job_runs (name, last_run_at) VALUES ('housekeeping', now() - interval '10 seconds')
       ON CONFLICT (name) DO UPDATE SET last_run_at = excluded.last_run_at`,
    );
    expect(await runHousekeeping()).toBe(false);
    // a minute later it is due again, for whichever machine comes first
    await sequelize.query(
      "UPDATE job_runs SET last_run_at = now() - interval '61 seconds' WHERE name = 'housekeeping'",
    );
    expect(await runHousekeeping()).toBe(true);
    expect(await runHousekeeping()).toBe(false);
  });
});
