import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";
import { User } from "./user.server";
import type { BillingInterval, CampaignType, MembershipStatus } from "~/services/memberships/rules";

export {
  BILLING_INTERVALS,
  CAMPAIGN_TYPES,
  MEMBERSHIP_STATUSES,
} from "~/services/memberships/rules";
export type { BillingInterval, CampaignType, MembershipStatus };

export class MembershipPlan extends Model<
  InferAttributes<MembershipPlan>,
  InferCreationAttributes<MembershipPlan>
> {
  /** bigint: a string from pg. */
  declare id: CreationOptional<string>;
  declare code: string;
  declare name: string;
  declare description: CreationOptional<string>;
  /** Decimal string, two places; "0.00" is the free tier. */
  declare price: string;
  declare billingInterval: BillingInterval;
  /** Active listings a member may have; null is unlimited. */
  declare vehicleLimit: number | null;
  declare featuredListings: CreationOptional<number>;
  declare prioritySupport: CreationOptional<boolean>;
  declare advancedBuyerTools: CreationOptional<boolean>;
  declare sellerAnalytics: CreationOptional<boolean>;
  /** The one plan with the "Most Popular" ribbon (a unique index allows one active plan). */
  declare mostPopular: CreationOptional<boolean>;
  declare active: CreationOptional<boolean>;
  declare sortOrder: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

MembershipPlan.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    code: { type: DataTypes.TEXT, allowNull: false },
    name: { type: DataTypes.TEXT, allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: false, defaultValue: "" },
    price: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    billingInterval: { type: DataTypes.TEXT, allowNull: false },
    vehicleLimit: { type: DataTypes.INTEGER, allowNull: true },
    featuredListings: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    prioritySupport: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    advancedBuyerTools: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    sellerAnalytics: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    mostPopular: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    sortOrder: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "membership_plans" },
);

export class Campaign extends Model<InferAttributes<Campaign>, InferCreationAttributes<Campaign>> {
  declare id: CreationOptional<string>;
  declare code: string;
  declare type: CampaignType;
  declare name: string;
  declare description: CreationOptional<string>;
  declare trialDays: number | null;
  declare active: CreationOptional<boolean>;
  declare startsAt: CreationOptional<Date>;
  declare endDate: Date;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Campaign.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    code: { type: DataTypes.TEXT, allowNull: false },
    type: { type: DataTypes.TEXT, allowNull: false },
    name: { type: DataTypes.TEXT, allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: false, defaultValue: "" },
    trialDays: { type: DataTypes.INTEGER, allowNull: true },
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    startsAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    endDate: { type: DataTypes.DATE, allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "campaigns" },
);

export class Membership extends Model<
  InferAttributes<Membership>,
  InferCreationAttributes<Membership>
> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare planId: string;
  declare campaignId: string | null;
  declare status: MembershipStatus;
  declare currentPeriodStart: Date;
  declare currentPeriodEnd: Date;
  declare cancelAtPeriodEnd: CreationOptional<boolean>;
  declare cancelledAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Membership.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    planId: { type: DataTypes.BIGINT, allowNull: false },
    campaignId: { type: DataTypes.BIGINT, allowNull: true },
    status: { type: DataTypes.TEXT, allowNull: false },
    currentPeriodStart: { type: DataTypes.DATE, allowNull: false },
    currentPeriodEnd: { type: DataTypes.DATE, allowNull: false },
    cancelAtPeriodEnd: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    cancelledAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "memberships" },
);

/** Once per user ever: the primary key on userId is the rule. */
export class MembershipTrial extends Model<
  InferAttributes<MembershipTrial>,
  InferCreationAttributes<MembershipTrial>
> {
  declare userId: string;
  declare campaignId: string;
  declare planId: string;
  declare startedAt: CreationOptional<Date>;
  declare endsAt: Date;
}

MembershipTrial.init(
  {
    userId: { type: DataTypes.UUID, primaryKey: true },
    campaignId: { type: DataTypes.BIGINT, allowNull: false },
    planId: { type: DataTypes.BIGINT, allowNull: false },
    startedAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
    endsAt: { type: DataTypes.DATE, allowNull: false },
  },
  { sequelize, tableName: "membership_trials", timestamps: false },
);

Membership.belongsTo(MembershipPlan, { foreignKey: "planId", as: "plan" });
Membership.belongsTo(User, { foreignKey: "userId" });

export const PURCHASE_KINDS = ["subscribe", "renew"] as const;
export type PurchaseKind = (typeof PURCHASE_KINDS)[number];

/** What one payment order buys; applied once when the order is captured. */
export class MembershipPurchase extends Model<
  InferAttributes<MembershipPurchase>,
  InferCreationAttributes<MembershipPurchase>
> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare planId: string;
  declare campaignId: string | null;
  declare kind: PurchaseKind;
  declare amount: string;
  declare paymentOrderId: string;
  declare status: CreationOptional<"pending" | "applied" | "cancelled">;
  declare periodStart: CreationOptional<Date | null>;
  declare periodEnd: CreationOptional<Date | null>;
  declare appliedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

MembershipPurchase.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    planId: { type: DataTypes.BIGINT, allowNull: false },
    campaignId: { type: DataTypes.BIGINT, allowNull: true },
    kind: { type: DataTypes.TEXT, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    paymentOrderId: { type: DataTypes.UUID, allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "pending" },
    periodStart: { type: DataTypes.DATE, allowNull: true },
    periodEnd: { type: DataTypes.DATE, allowNull: true },
    appliedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "membership_purchases" },
);
