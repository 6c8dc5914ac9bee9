// The built-in TEST MODE gateway: the same contract and redirect flow as PayPal, with its books
// in PostgreSQL (test_gateway_orders) so any app process can approve and capture. No money moves.
import { randomBytes } from "node:crypto";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import {
  PaymentGatewayError,
  type CaptureResult,
  type CreatedOrder,
  type PaymentGateway,
} from "./gateway.server";

export const TEST_CHECKOUT_PATH = "/payments/test-checkout";

type TestOrderRow = {
  id: string;
  amount: string;
  currency: string;
  description: string;
  return_url: string;
  cancel_url: string;
  status: "CREATED" | "APPROVED" | "COMPLETED" | "VOIDED";
  capture_id: string | null;
  refunded_amount: string;
};

function newId(prefix: string) {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(16);
  return prefix + Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}

/** The order as the test checkout page shows it, or null. */
export async function findTestOrder(id: string): Promise<TestOrderRow | null> {
  if (!/^TEST-[A-Z0-9]{16}$/.test(id)) return null;
  const rows = await sequelize.query<TestOrderRow>(
    "select * from test_gateway_orders where id = :id",
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return rows[0] ?? null;
}

/**
 * The payer's choice on the test checkout page. Answers where to send the browser (the order's
 * return or cancel URL with ?token=), or null when the order cannot take that choice.
 */
export async function decideTestOrder(id: string, approve: boolean): Promise<string | null> {
  if (!/^TEST-[A-Z0-9]{16}$/.test(id)) return null;
  const rows = await sequelize.query<TestOrderRow>(
    `update test_gateway_orders set status = :status, updated_at = now()
      where id = :id and status in ('CREATED', 'APPROVED') returning *`,
    { replacements: { id, status: approve ? "APPROVED" : "VOIDED" }, type: QueryTypes.SELECT },
  );
  const order = rows[0];
  if (!order) return null;
  const target = new URL(approve ? order.return_url : order.cancel_url);
  target.searchParams.set("token", order.id);
  if (approve) target.searchParams.set("PayerID", "TESTPAYER");
  return target.toString();
}

export function createTestGateway(): PaymentGateway {
  return {
    name: "test",
    testMode: true,

    async createOrder(input): Promise<CreatedOrder> {
      const id = newId("TEST-");
      const rows = await sequelize.query<{ id: string }>(
        `insert into test_gateway_orders
           (id, request_id, amount, currency, description, return_url, cancel_url)
         values (:id, :requestId, :amount, :currency, :description, :returnUrl, :cancelUrl)
         on conflict (request_id) do update set updated_at = now()
         returning id`,
        {
          replacements: { id, requestId: input.idempotencyKey, ...input },
          type: QueryTypes.SELECT,
        },
      );
      const orderId = rows[0].id;
      const approval = new URL(TEST_CHECKOUT_PATH, input.returnUrl);
      approval.searchParams.set("token", orderId);
      return { providerOrderId: orderId, approvalUrl: approval.toString() };
    },

    async captureOrder(providerOrderId): Promise<CaptureResult> {
      return sequelize.transaction(async (transaction) => {
        const rows = await sequelize.query<TestOrderRow>(
          "select * from test_gateway_orders where id = :id for update",
          { replacements: { id: providerOrderId }, type: QueryTypes.SELECT, transaction },
        );
        const order = rows[0];
        if (!order) throw new PaymentGatewayError("not_found", "No such test order");
        if (order.status === "COMPLETED") {
          return {
            providerOrderId: order.id,
            captureId: order.capture_id!,
            amount: order.amount,
            currency: order.currency,
            status: "COMPLETED",
            alreadyCaptured: true,
          };
        }
        if (order.status !== "APPROVED") {
          throw new PaymentGatewayError(
            "declined",
            "The test order was not approved",
            order.status === "VOIDED" ? "ORDER_VOIDED" : "ORDER_NOT_APPROVED",
          );
        }
        const captureId = newId("TESTCAP-");
        await sequelize.query(
          `update test_gateway_orders set status = 'COMPLETED', capture_id = :captureId,
             updated_at = now() where id = :id`,
          { replacements: { id: order.id, captureId }, transaction },
        );
        return {
          providerOrderId: order.id,
          captureId,
          amount: order.amount,
          currency: order.currency,
          status: "COMPLETED",
          alreadyCaptured: false,
        };
      });
    },

    async refundCapture(input) {
      return sequelize.transaction(async (transaction) => {
        const done = await sequelize.query<{ id: string; amount: string }>(
          "select id, amount from test_gateway_refunds where request_id = :requestId",
          {
            replacements: { requestId: input.idempotencyKey },
            type: QueryTypes.SELECT,
            transaction,
          },
        );
        if (done[0]) return { refundId: done[0].id, amount: done[0].amount, status: "COMPLETED" };
        const rows = await sequelize.query<TestOrderRow>(
          `update test_gateway_orders set refunded_amount = refunded_amount + :amount,
             updated_at = now()
           where capture_id = :captureId and refunded_amount + :amount <= amount
           returning *`,
          { replacements: input, type: QueryTypes.SELECT, transaction },
        );
        if (!rows[0]) {
          throw new PaymentGatewayError(
            "declined",
            "The test capture cannot be refunded that much",
            "REFUND_AMOUNT_EXCEEDED",
          );
        }
        const refundId = newId("TESTREF-");
        await sequelize.query(
          `insert into test_gateway_refunds (id, request_id, order_id, amount)
           values (:refundId, :requestId, :orderId, :amount)`,
          {
            replacements: {
              refundId,
              requestId: input.idempotencyKey,
              orderId: rows[0].id,
              amount: input.amount,
            },
            transaction,
          },
        );
        return { refundId, amount: input.amount, status: "COMPLETED" };
      });
    },

    async capturedBefore(providerOrderId) {
      const rows = await sequelize.query<TestOrderRow>(
        "select * from test_gateway_orders where id = :id",
        { replacements: { id: providerOrderId }, type: QueryTypes.SELECT },
      );
      const order = rows[0];
      if (!order || order.status !== "COMPLETED") return null;
      return {
        providerOrderId: order.id,
        captureId: order.capture_id!,
        amount: order.amount,
        currency: order.currency,
        status: "COMPLETED",
        alreadyCaptured: true,
      };
    },

    async voidOrder(providerOrderId) {
      await sequelize.query(
        `update test_gateway_orders set status = 'VOIDED', updated_at = now()
          where id = :id and status in ('CREATED', 'APPROVED')`,
        { replacements: { id: providerOrderId } },
      );
    },

    async clientToken() {
      return "test-mode";
    },
  };
}
