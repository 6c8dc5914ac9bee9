// Arranges won purchases for integration tests: a verified buyer whose deposit is in the ledger,
// a lot they win at `price`, closed by the closer (which writes the invoice).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { placeBid } from "./bids";
import { closeLotIfEnded } from "~/services/auctions/closer.server";
import { recordOpeningBalance } from "~/services/deposits/deposits.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { ServiceOrder } from "~/models/affiliate.server";
import { Purchase, type TitleType } from "~/models/auction.server";
import { requestServiceForPurchase } from "~/services/affiliates/service-orders.server";
import { confirmTransportPayment } from "~/services/affiliates/transport-payments.server";
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

/**
 * A lot sold to `buyer` for $1,000 (`lot` says where and what it is) and its purchase, already
 * paid, so it holds none of the deposit.
 */
export async function paidPurchaseOf(
  buyer: { id: string },
  lot: Parameters<typeof createTestLot>[0] = {},
) {
  const sold = await createTestLot({
    ...lot,
    status: "sold",
    highBidderId: buyer.id,
    highMax: "1000.00",
    currentBid: "1000.00",
    closedAt: new Date(),
  });
  const purchase = await Purchase.create({
    lotId: sold.id,
    userId: buyer.id,
    amount: "1000.00",
    status: "paid",
    paidAt: new Date(),
  });
  return { lot: sold, purchase };
}

/**
 * A buyer with `deposit` in the ledger, a paid purchase of a Phoenix lot at $1,000 and its unpaid
 * shipping order to Long Beach: the start of every transport payment test.
 */
export async function arrangeShippingOrder(
  deposit: string,
  buyerFields: Parameters<typeof createTestUser>[0] = {},
) {
  const buyer = await createTestUser(buyerFields);
  await recordOpeningBalance(buyer.id, deposit);
  const { purchase } = await paidPurchaseOf(buyer, {
    locationCity: "Phoenix",
    locationState: "AZ",
    yardName: "IAAI Phoenix",
  });
  const created = await requestServiceForPurchase(buyer.id, {
    purchaseId: Number(purchase.id),
    serviceType: "shipping",
    delivery: "Long Beach, CA",
  });
  const order = await ServiceOrder.findByPk(created.id, { rejectOnEmpty: true });
  return { buyer, order, id: String(order.id) };
}

/** The IAAI yard the feed calls "Seattle": it is in Kent, WA 98032, with its street, hours, phone. */
export async function addKentYard() {
  await sequelize.query(
    `INSERT INTO yards (auction_house, name, street, city, state, zip, phone, hours)
     VALUES ('iaai', 'Seattle', '22606 68th Ave S', 'Kent', 'WA', '98032', '(253) 555-0190',
             'Mon–Fri 8:00 AM – 4:30 PM')
     ON CONFLICT (auction_house, name) DO NOTHING`,
  );
}

/**
 * A paid purchase by `buyer` of a lot listed under Seattle at the IAAI "Seattle" yard (in Kent:
 * addKentYard), released with `pickupCode`.
 */
export async function paidSeattlePurchase(buyer: { id: string }, pickupCode: string) {
  const { lot, purchase } = await paidPurchaseOf(buyer, {
    auctionHouse: "iaai",
    locationCity: "Seattle",
    locationState: "WA",
    locationZip: "98032",
    yardName: "Seattle",
  });
  await sequelize.query("UPDATE purchases SET pickup_code = :code WHERE id = :id", {
    replacements: { id: purchase.id, code: pickupCode },
  });
  return { purchaseId: String(purchase.id), lotId: String(lot.id) };
}

/**
 * A transport job on the board, ready to claim: a paidSeattlePurchase shipped to `delivery`, the
 * transport paid from the buyer's deposit.
 */
export async function paidSeattleShippingJob(
  buyer: { id: string },
  delivery: string,
  pickupCode: string,
) {
  const { purchaseId, lotId } = await paidSeattlePurchase(buyer, pickupCode);
  const order = await requestServiceForPurchase(buyer.id, {
    purchaseId: Number(purchaseId),
    serviceType: "shipping",
    delivery,
  });
  await confirmTransportPayment(buyer.id, String(order.id), order.payout, "deposit");
  return { orderId: String(order.id), purchaseId, lotId };
}
