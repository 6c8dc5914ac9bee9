// Arranges won purchases for integration tests: a verified buyer whose deposit is in the ledger,
// a lot they win at `price`, closed by the closer (which writes the invoice).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { placeBid } from "~/services/auctions/bidding.server";
import { closeLotIfEnded } from "~/services/auctions/closer.server";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import type { TitleType } from "~/models/auction.server";
import { createTestUser } from "./auth";
import { createTestLot } from "./lots";

export async function createBuyer(deposit: string) {
  const user = await createTestUser({ verified: true });
  await recordOpeningBalance(user.id, deposit);
  await user.reload();
  return user;
}

/** A lot `buyer` won at `price`; the sale happened an hour ago (the clock is left as it was). */
export async function arrangeWonPurchase(
  buyer: { id: string },
  price: string,
  options: { titleType?: TitleType; soldAt?: Date } = {},
) {
  const soldAt = options.soldAt ?? new Date(Date.now() - 60 * 60 * 1000);
  const lot = await createTestLot({
    titleType: options.titleType ?? "clean",
    startsAt: new Date(soldAt.getTime() - 2 * 60 * 60 * 1000),
    endsAt: soldAt,
    yardName: "Copart Dallas",
    locationZip: "75211",
  });
  const clock = fixedClock(new Date(soldAt.getTime() - 60 * 60 * 1000));
  setClock(clock);
  try {
    await placeBid(buyer.id, { lotId: lot.id, amount: price, isProxy: false });
    clock.set(soldAt);
    await closeLotIfEnded(lot.id);
  } finally {
    resetClock();
  }
  const [row] = await sequelize.query<{ id: string }>(
    "SELECT id FROM purchases WHERE lot_id = :lotId",
    { replacements: { lotId: lot.id }, type: QueryTypes.SELECT },
  );
  return { lot, purchaseId: String(row.id) };
}
