import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";
import { User } from "./user.server";
import { AUCTION_HOUSES, DAMAGE_TYPES, TITLE_TYPES } from "~/services/auctions/options";
import type { OdometerBrand, RunCondition } from "~/services/auctions/house-facts";

export const LOT_STATUSES = ["active", "sold", "unsold"] as const;
export type AuctionHouse = (typeof AUCTION_HOUSES)[number];
export type DamageType = (typeof DAMAGE_TYPES)[number];
export type TitleType = (typeof TITLE_TYPES)[number];
export type LotStatus = (typeof LOT_STATUSES)[number];

export class Lot extends Model<InferAttributes<Lot>, InferCreationAttributes<Lot>> {
  declare id: CreationOptional<string>;
  declare auctionHouse: AuctionHouse;
  declare lotNumber: string;
  declare vin: string;
  declare year: number;
  declare make: string;
  declare model: string;
  declare trimLevel: string | null;
  declare bodyStyle: string | null;
  declare color: string | null;
  declare locationCity: string;
  declare locationState: string;
  declare locationZip: string | null;
  declare yardName: string | null;
  declare damageType: CreationOptional<DamageType>;
  declare primaryDamage: string | null;
  declare secondaryDamage: string | null;
  declare titleState: string | null;
  declare titleType: CreationOptional<TitleType>;
  declare odometer: number | null;
  declare runsDrives: CreationOptional<boolean>;
  declare hasKeys: CreationOptional<boolean>;
  /** The houses' facts, null when the feed did not say (docs/decisions/3550). */
  declare odometerBrand: CreationOptional<OdometerBrand | null>;
  declare runCondition: CreationOptional<RunCondition | null>;
  declare conditionCode: CreationOptional<string | null>;
  declare itemNumber: CreationOptional<string | null>;
  declare gridRow: CreationOptional<string | null>;
  /** Decimal strings, two places. */
  declare estimatedValue: CreationOptional<string>;
  declare repairCost: string | null;
  declare imageUrls: CreationOptional<string[]>;
  declare startsAt: Date;
  declare endsAt: Date;
  declare status: CreationOptional<LotStatus>;
  declare currentBid: CreationOptional<string>;
  declare bidCount: CreationOptional<number>;
  declare highBidderId: CreationOptional<string | null>;
  declare highMax: CreationOptional<string | null>;
  declare closedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Lot.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    auctionHouse: { type: DataTypes.TEXT, allowNull: false },
    lotNumber: { type: DataTypes.TEXT, allowNull: false },
    vin: { type: DataTypes.TEXT, allowNull: false },
    year: { type: DataTypes.INTEGER, allowNull: false },
    make: { type: DataTypes.TEXT, allowNull: false },
    model: { type: DataTypes.TEXT, allowNull: false },
    trimLevel: { type: DataTypes.TEXT, allowNull: true },
    bodyStyle: { type: DataTypes.TEXT, allowNull: true },
    color: { type: DataTypes.TEXT, allowNull: true },
    locationCity: { type: DataTypes.TEXT, allowNull: false },
    locationState: { type: DataTypes.CHAR(2), allowNull: false },
    locationZip: { type: DataTypes.TEXT, allowNull: true },
    yardName: { type: DataTypes.TEXT, allowNull: true },
    damageType: { type: DataTypes.TEXT, allowNull: false, defaultValue: "other" },
    primaryDamage: { type: DataTypes.TEXT, allowNull: true },
    secondaryDamage: { type: DataTypes.TEXT, allowNull: true },
    titleState: { type: DataTypes.CHAR(2), allowNull: true },
    titleType: { type: DataTypes.TEXT, allowNull: false, defaultValue: "clean" },
    odometer: { type: DataTypes.INTEGER, allowNull: true },
    runsDrives: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    hasKeys: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    odometerBrand: { type: DataTypes.TEXT, allowNull: true },
    runCondition: { type: DataTypes.TEXT, allowNull: true },
    conditionCode: { type: DataTypes.TEXT, allowNull: true },
    itemNumber: { type: DataTypes.TEXT, allowNull: true },
    gridRow: { type: DataTypes.TEXT, allowNull: true },
    estimatedValue: { type: DataTypes.DECIMAL(12, 2), allowNull: false, defaultValue: "0.00" },
    repairCost: { type: DataTypes.DECIMAL(12, 2), allowNull: true },
    imageUrls: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false, defaultValue: [] },
    startsAt: { type: DataTypes.DATE, allowNull: false },
    endsAt: { type: DataTypes.DATE, allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "active" },
    currentBid: { type: DataTypes.DECIMAL(12, 2), allowNull: false, defaultValue: "0.00" },
    bidCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    highBidderId: { type: DataTypes.UUID, allowNull: true },
    highMax: { type: DataTypes.DECIMAL(12, 2), allowNull: true },
    closedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "lots" },
);

export class Bid extends Model<InferAttributes<Bid>, InferCreationAttributes<Bid>> {
  declare id: CreationOptional<string>;
  declare lotId: string;
  declare userId: string;
  declare amount: string;
  declare maxAmount: string;
  declare isProxy: boolean;
  /** A raise the engine made for a standing proxy. */
  declare automatic: CreationOptional<boolean>;
  /** A leader's raise of their own maximum: counts for the resolution, shown to no one. */
  declare maxRaise: CreationOptional<boolean>;
  declare createdAt: Date;
}

Bid.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    lotId: { type: DataTypes.BIGINT, allowNull: false },
    userId: { type: DataTypes.UUID, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    maxAmount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    isProxy: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    automatic: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    maxRaise: {
      type: DataTypes.BOOLEAN,
      allowNull: false,
      defaultValue: false,
      field: "max_raise",
    },
    createdAt: { type: DataTypes.DATE, allowNull: false },
  },
  { sequelize, tableName: "bids", updatedAt: false },
);

export class Watch extends Model<InferAttributes<Watch>, InferCreationAttributes<Watch>> {
  declare userId: string;
  declare lotId: string;
  declare createdAt: CreationOptional<Date>;
}

Watch.init(
  {
    userId: { type: DataTypes.UUID, primaryKey: true },
    lotId: { type: DataTypes.BIGINT, primaryKey: true },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "watchlist", updatedAt: false },
);

export const PURCHASE_STATUSES = ["pending", "paid", "cancelled"] as const;

export class Purchase extends Model<InferAttributes<Purchase>, InferCreationAttributes<Purchase>> {
  declare id: CreationOptional<string>;
  declare lotId: string;
  declare userId: string;
  declare amount: string;
  /** pending holds the amount against the deposit until settled. */
  declare status: CreationOptional<(typeof PURCHASE_STATUSES)[number]>;
  declare paidAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Purchase.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    lotId: { type: DataTypes.BIGINT, allowNull: false },
    userId: { type: DataTypes.UUID, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "pending" },
    paidAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "purchases" },
);

export const LOT_IMAGE_SOURCES = ["image_url", "image_thumbnail", "catalogue"] as const;
export const LOT_IMAGE_STATUSES = ["pending", "stored", "expanded", "failed", "skipped"] as const;

/**
 * A picture a lot's feed names, and what became of it (docs/decisions/2105-lot-pictures.md). Its
 * tries are the lot's fetch_lot_pictures job's (record 3564).
 */
export class LotImage extends Model<InferAttributes<LotImage>, InferCreationAttributes<LotImage>> {
  declare id: CreationOptional<string>;
  declare lotId: string;
  declare source: (typeof LOT_IMAGE_SOURCES)[number];
  declare position: number;
  declare sourceUrl: string;
  declare status: CreationOptional<(typeof LOT_IMAGE_STATUSES)[number]>;
  declare storageKey: CreationOptional<string | null>;
  declare thumbKey: CreationOptional<string | null>;
  declare contentType: CreationOptional<string | null>;
  declare width: CreationOptional<number | null>;
  declare height: CreationOptional<number | null>;
  declare error: CreationOptional<string | null>;
  declare storedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

LotImage.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    lotId: { type: DataTypes.BIGINT, allowNull: false },
    source: { type: DataTypes.TEXT, allowNull: false },
    position: { type: DataTypes.INTEGER, allowNull: false },
    sourceUrl: { type: DataTypes.TEXT, allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "pending" },
    storageKey: { type: DataTypes.TEXT, allowNull: true },
    thumbKey: { type: DataTypes.TEXT, allowNull: true },
    contentType: { type: DataTypes.TEXT, allowNull: true },
    width: { type: DataTypes.INTEGER, allowNull: true },
    height: { type: DataTypes.INTEGER, allowNull: true },
    error: { type: DataTypes.TEXT, allowNull: true },
    storedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "lot_images" },
);

Lot.hasMany(Bid, { foreignKey: "lotId" });
Bid.belongsTo(Lot, { foreignKey: "lotId" });
Bid.belongsTo(User, { foreignKey: "userId" });
Purchase.belongsTo(Lot, { foreignKey: "lotId" });
Lot.hasMany(LotImage, { foreignKey: "lotId" });
LotImage.belongsTo(Lot, { foreignKey: "lotId" });
