// Runs the auction closer in its own process, batch after batch, and freezes half-way through a
// batch (after STOP_AFTER_LOTS lots closed in all, inside the open transaction) so the test can
// kill it with SIGKILL at exactly that point. Prints "HALFWAY n" when frozen, "DONE" otherwise.
import { sequelize } from "~/models/db.server";
import { closeEndedLots } from "~/services/auctions/closer.server";

const stopAfter = Number(process.env.STOP_AFTER_LOTS ?? "0");
const batch = Number(process.env.CLOSER_BATCH ?? "200");
let closed = 0;

const query = sequelize.query.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
(sequelize as unknown as { query: typeof query }).query = async (...args: unknown[]) => {
  const sql = typeof args[0] === "string" ? args[0] : "";
  if (/^\s*UPDATE lots SET status = '(sold|unsold)'/.test(sql)) {
    if (closed === stopAfter) {
      process.stdout.write(`HALFWAY ${closed}\n`);
      await new Promise(() => undefined); // frozen mid-transaction until killed
    }
    const result = await query(...args);
    closed += 1;
    return result;
  }
  return query(...args);
};

while ((await closeEndedLots(batch)) > 0) {
  // next batch
}
process.stdout.write("DONE\n");
await sequelize.close();
