import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";

export const PAYMENT_PURPOSES = ["deposit", "membership", "purchase", "service_order"] as const;
export const PAYMENT_PROVIDERS = ["paypal", "test"] as const;
export const PAYMENT_ORDER_STATUSES = ["created", "captured", "cancelled", "failed"] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

/** Our side of one order at the payment provider. Money columns are decimal strings. */
export class PaymentOrder extends Model<
  InferAttributes<PaymentOrder>,
  InferCreationAttributes<PaymentOrder>
> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare purpose: PaymentPurpose;
  declare provider: PaymentProvider;
  declare providerOrderId: string;
  declare idempotencyKey: string;
  declare description: string;
  /** What we asked the provider to charge. */
  declare amount: string;
  declare currency: CreationOptional<string>;
  declare status: CreationOptional<PaymentOrderStatus>;
  /** What the provider says it captured: the only amount ever credited. */
  declare capturedAmount: CreationOptional<string | null>;
  declare captureId: CreationOptional<string | null>;
  declare capturedAt: CreationOptional<Date | null>;
  declare refundedAmount: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

PaymentOrder.init(
  {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    userId: { type: DataTypes.UUID, allowNull: false },
    purpose: { type: DataTypes.TEXT, allowNull: false },
    provider: { type: DataTypes.TEXT, allowNull: false },
    providerOrderId: { type: DataTypes.TEXT, allowNull: false },
    idempotencyKey: { type: DataTypes.TEXT, allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    currency: { type: DataTypes.TEXT, allowNull: false, defaultValue: "USD" },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "created" },
    capturedAmount: { type: DataTypes.DECIMAL(12, 2), allowNull: true },
    captureId: { type: DataTypes.TEXT, allowNull: true },
    capturedAt: { type: DataTypes.DATE, allowNull: true },
    refundedAmount: { type: DataTypes.DECIMAL(12, 2), allowNull: false, defaultValue: "0.00" },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "payment_orders" },
);

export const PAYMENT_REFUND_STATUSES = ["pending", "completed", "failed"] as const;
export type PaymentRefundStatus = (typeof PAYMENT_REFUND_STATUSES)[number];

/** One refund sent to the provider against one captured order. */
export class PaymentRefund extends Model<
  InferAttributes<PaymentRefund>,
  InferCreationAttributes<PaymentRefund>
> {
  declare id: CreationOptional<string>;
  declare paymentOrderId: string;
  declare userId: string;
  declare amount: string;
  declare status: CreationOptional<PaymentRefundStatus>;
  declare providerRefundId: CreationOptional<string | null>;
  /** The provider's words when it refused the refund for good. */
  declare failureReason: CreationOptional<string | null>;
  /** A refused refund of money that was never the deposit's waits for a person until these are set. */
  declare resolvedAt: CreationOptional<Date | null>;
  declare resolvedBy: CreationOptional<string | null>;
  declare resolution: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

PaymentRefund.init(
  {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    paymentOrderId: { type: DataTypes.UUID, allowNull: false },
    userId: { type: DataTypes.UUID, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "pending" },
    providerRefundId: { type: DataTypes.TEXT, allowNull: true },
    failureReason: { type: DataTypes.TEXT, allowNull: true },
    resolvedAt: { type: DataTypes.DATE, allowNull: true },
    resolvedBy: { type: DataTypes.UUID, allowNull: true },
    resolution: { type: DataTypes.TEXT, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "payment_refunds" },
);

PaymentOrder.hasMany(PaymentRefund, { foreignKey: "paymentOrderId" });
PaymentRefund.belongsTo(PaymentOrder, { foreignKey: "paymentOrderId" });
