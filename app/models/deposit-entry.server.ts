import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";

export const DEPOSIT_ENTRY_KINDS = ["deposit", "refund", "applied", "adjustment"] as const;
export type DepositEntryKind = (typeof DEPOSIT_ENTRY_KINDS)[number];

/**
 * One line of a user's deposit ledger. The user's `deposit` column always equals the sum of
 * their entries; both change in the same transaction. Entries are never updated or deleted.
 */
export class DepositEntry extends Model<
  InferAttributes<DepositEntry>,
  InferCreationAttributes<DepositEntry>
> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare kind: DepositEntryKind;
  /** Signed decimal string: credits positive, debits negative. */
  declare amount: string;
  declare balanceAfter: string;
  declare paymentOrderId: string | null;
  declare paymentRefundId: string | null;
  declare memo: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
}

DepositEntry.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    kind: { type: DataTypes.TEXT, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    balanceAfter: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    paymentOrderId: { type: DataTypes.UUID, allowNull: true },
    paymentRefundId: { type: DataTypes.UUID, allowNull: true },
    memo: { type: DataTypes.TEXT, allowNull: false, defaultValue: "" },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "deposit_entries", updatedAt: false },
);
