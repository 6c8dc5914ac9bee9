// The transport migration (docs/decisions/1751) credits jobs completed before the earnings ledger
// existed, once each, and keeps the other features' payment purposes when it adds its own.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { ProviderEarning, ServiceOrder } from "~/models/affiliate.server";
import { sequelize } from "~/models/db.server";
import { down, up } from "../../db/migrations/20261123-1751-transport-charges-provider-earnings";
import { createAffiliate } from "../support/affiliates";

describe("migration 1751", () => {
  it("backfills one credit per already-completed job and composes the purpose list", async () => {
    const provider = await createAffiliate();
    const order = await ServiceOrder.create({
      serviceType: "shipping",
      vehicleLabel: "Old job",
      pickupCity: "Dallas",
      pickupState: "TX",
      deliveryCity: "Houston",
      deliveryState: "TX",
      distanceMiles: 252,
      payout: "364.05",
      createdBy: null,
    });
    const at = new Date(Date.now() - 60_000);
    await order.update({
      status: "completed",
      claimedBy: provider.id,
      claimedAt: at,
      startedAt: at,
      completedAt: at,
    });
    const context = sequelize.getQueryInterface();
    await down({ context });
    // another feature's purpose added meanwhile survives this migration going up
    await sequelize.query(`ALTER TABLE payment_orders DROP CONSTRAINT payment_orders_purpose_check;
      ALTER TABLE payment_orders ADD CONSTRAINT payment_orders_purpose_check
        CHECK (purpose IN ('deposit', 'membership', 'invoice'))`);
    await up({ context });

    const credits = await ProviderEarning.findAll({ where: { serviceOrderId: order.id } });
    expect(credits).toHaveLength(1);
    // 10% of $364.05 is $36.405, rounded half up to $36.41
    expect(credits[0]).toMatchObject({
      providerId: provider.id,
      gross: "364.05",
      platformFee: "36.41",
      net: "327.64",
      feeBasisPoints: 1000,
    });
    const [{ def }] = await sequelize.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conname = 'payment_orders_purpose_check'`,
      { type: QueryTypes.SELECT },
    );
    for (const purpose of ["deposit", "membership", "invoice", "service_order"])
      expect(def).toContain(`'${purpose}'`);
  });
});
