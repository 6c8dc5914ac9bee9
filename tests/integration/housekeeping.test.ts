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
});
