import { sequelize } from "../../app/models/db.server";
import { User } from "../../app/models/user.server";
import { seedTestDeposit } from "../../app/services/deposits/deposits.server";
import type { SeedOptions } from "./index";

export const DEMO_USERS = [
  {
    email: "admin@bidyard.test",
    firstName: "Avery",
    lastName: "Admin",
    role: "admin",
    verified: true,
    deposit: "0.00",
    accountType: "buyer",
  },
  {
    email: "buyer@bidyard.test",
    firstName: "Blake",
    lastName: "Buyer",
    role: "user",
    verified: true,
    deposit: "2500.00",
    accountType: "buyer",
  },
  {
    email: "newbuyer@bidyard.test",
    firstName: "Nora",
    lastName: "Newman",
    role: "user",
    verified: false,
    deposit: "0.00",
    accountType: "buyer",
  },
  {
    email: "shipper@bidyard.test",
    firstName: "Sam",
    lastName: "Shipper",
    role: "user",
    verified: true,
    deposit: "0.00",
    accountType: "affiliate",
  },
  {
    email: "applicant@bidyard.test",
    firstName: "Alex",
    lastName: "Applicant",
    role: "user",
    verified: false,
    deposit: "0.00",
    accountType: "affiliate",
  },
] as const;

export async function seedUsers(_options: SeedOptions) {
  for (const [i, { deposit, ...demo }] of DEMO_USERS.entries()) {
    let user = await User.findOne({ where: { email: demo.email } });
    if (!user) {
      user = await User.create({ ...demo, deposit: "0.00", oidcSubject: null });
      // accounts older than what the demo shows them doing (the buyer's won lot was bid on
      // before today): they joined a few months ago
      await sequelize.query(
        "UPDATE users SET created_at = now() - make_interval(days => $2), updated_at = now() WHERE id = $1",
        { bind: [user.id, 60 + i * 17] },
      );
    }
    // Demo money is paid in through the TEST MODE gateway like any deposit: a captured order and
    // its ledger entry, so it can be refunded (runs once).
    if (deposit !== "0.00") await seedTestDeposit(user.id, deposit);
  }
}
