import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";
import { User } from "./user.server";
import type {
  BodyType,
  Condition,
  Country,
  Currency,
  Drivetrain,
  FuelType,
  Transmission,
} from "~/services/listings/fields";

export const LISTING_STATUSES = ["active", "sold", "deleted"] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

export class Listing extends Model<InferAttributes<Listing>, InferCreationAttributes<Listing>> {
  /** bigint: comes back from pg as a string. */
  declare id: CreationOptional<string>;
  declare userId: string;
  declare title: string;
  declare description: CreationOptional<string>;
  declare make: string;
  declare model: string;
  declare year: number;
  declare mileage: number | null;
  /** Decimal string, two places. */
  declare price: string;
  declare currency: CreationOptional<Currency>;
  declare condition: Condition;
  declare fuelType: FuelType | null;
  declare transmission: Transmission | null;
  declare drivetrain: Drivetrain | null;
  declare exteriorColor: string | null;
  declare interiorColor: string | null;
  declare bodyType: BodyType | null;
  declare country: CreationOptional<Country>;
  declare state: string | null;
  declare city: string;
  declare zipCode: string | null;
  declare vin: string | null;
  declare featured: CreationOptional<boolean>;
  declare status: CreationOptional<ListingStatus>;
  declare soldAt: Date | null;
  declare deletedAt: Date | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Listing.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    title: { type: DataTypes.TEXT, allowNull: false },
    description: { type: DataTypes.TEXT, allowNull: false, defaultValue: "" },
    make: { type: DataTypes.TEXT, allowNull: false },
    model: { type: DataTypes.TEXT, allowNull: false },
    year: { type: DataTypes.INTEGER, allowNull: false },
    mileage: { type: DataTypes.INTEGER, allowNull: true },
    price: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    currency: { type: DataTypes.TEXT, allowNull: false, defaultValue: "USD" },
    condition: { type: DataTypes.TEXT, allowNull: false },
    fuelType: { type: DataTypes.TEXT, allowNull: true },
    transmission: { type: DataTypes.TEXT, allowNull: true },
    drivetrain: { type: DataTypes.TEXT, allowNull: true },
    exteriorColor: { type: DataTypes.TEXT, allowNull: true },
    interiorColor: { type: DataTypes.TEXT, allowNull: true },
    bodyType: { type: DataTypes.TEXT, allowNull: true },
    country: { type: DataTypes.TEXT, allowNull: false, defaultValue: "US" },
    state: { type: DataTypes.TEXT, allowNull: true },
    city: { type: DataTypes.TEXT, allowNull: false },
    zipCode: { type: DataTypes.TEXT, allowNull: true },
    vin: { type: DataTypes.TEXT, allowNull: true },
    featured: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "active" },
    soldAt: { type: DataTypes.DATE, allowNull: true },
    deletedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "listings" },
);

export class ListingPhoto extends Model<
  InferAttributes<ListingPhoto>,
  InferCreationAttributes<ListingPhoto>
> {
  declare id: CreationOptional<string>;
  declare listingId: string;
  declare position: number;
  declare url: string;
  declare thumbnailUrl: string;
  declare storageKey: string | null;
  declare thumbnailKey: string | null;
  declare contentType: string;
  declare width: number | null;
  declare height: number | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

ListingPhoto.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    listingId: { type: DataTypes.BIGINT, allowNull: false },
    position: { type: DataTypes.SMALLINT, allowNull: false },
    url: { type: DataTypes.TEXT, allowNull: false },
    thumbnailUrl: { type: DataTypes.TEXT, allowNull: false },
    storageKey: { type: DataTypes.TEXT, allowNull: true },
    thumbnailKey: { type: DataTypes.TEXT, allowNull: true },
    contentType: { type: DataTypes.TEXT, allowNull: false },
    width: { type: DataTypes.INTEGER, allowNull: true },
    height: { type: DataTypes.INTEGER, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "listing_photos" },
);

export class ListingFavorite extends Model<
  InferAttributes<ListingFavorite>,
  InferCreationAttributes<ListingFavorite>
> {
  declare userId: string;
  declare listingId: string;
  declare createdAt: CreationOptional<Date>;
}

ListingFavorite.init(
  {
    userId: { type: DataTypes.UUID, primaryKey: true },
    listingId: { type: DataTypes.BIGINT, primaryKey: true },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "listing_favorites", updatedAt: false },
);

Listing.belongsTo(User, { foreignKey: "userId", as: "seller" });
Listing.hasMany(ListingPhoto, { foreignKey: "listingId", as: "photos" });
ListingPhoto.belongsTo(Listing, { foreignKey: "listingId" });
