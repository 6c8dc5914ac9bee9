import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";
import { User } from "./user.server";

export const SERVICE_TYPES = ["shipping", "export"] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];
export const APPLICATION_STATUSES = ["pending", "approved", "rejected"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const ORDER_STATUSES = ["open", "claimed", "in_progress", "completed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** not_required: staff-made jobs; unpaid: a buyer's job before payment (off the board); paid. */
export const ORDER_PAYMENT_STATUSES = ["not_required", "unpaid", "paid"] as const;
export type OrderPaymentStatus = (typeof ORDER_PAYMENT_STATUSES)[number];
export const VEHICLE_TYPES = ["sedan", "suv", "truck"] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export class AffiliateApplication extends Model<
  InferAttributes<AffiliateApplication>,
  InferCreationAttributes<AffiliateApplication>
> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare companyName: string;
  declare serviceTypes: ServiceType[];
  declare businessPhone: string;
  declare businessEmail: string;
  declare serviceAreas: string[];
  declare licenseDocumentUrl: string | null;
  declare status: CreationOptional<ApplicationStatus>;
  declare reviewedBy: CreationOptional<string | null>;
  declare reviewedAt: CreationOptional<Date | null>;
  declare rejectionReason: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

AffiliateApplication.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    companyName: { type: DataTypes.TEXT, allowNull: false },
    serviceTypes: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false },
    businessPhone: { type: DataTypes.TEXT, allowNull: false },
    businessEmail: { type: DataTypes.TEXT, allowNull: false },
    serviceAreas: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false },
    licenseDocumentUrl: { type: DataTypes.TEXT, allowNull: true },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "pending" },
    reviewedBy: { type: DataTypes.UUID, allowNull: true },
    reviewedAt: { type: DataTypes.DATE, allowNull: true },
    rejectionReason: { type: DataTypes.TEXT, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "affiliate_applications" },
);

export class ServiceOrder extends Model<
  InferAttributes<ServiceOrder>,
  InferCreationAttributes<ServiceOrder>
> {
  declare id: CreationOptional<string>;
  declare serviceType: ServiceType;
  declare lotId: string | null;
  declare purchaseId: string | null;
  declare requestedBy: string | null;
  declare createdBy: string | null;
  declare vehicleLabel: string;
  declare vehicleType: VehicleType | null;
  /** The auction house and its own lot number, copied from the lot (docs/decisions/2705). */
  declare auctionHouse: CreationOptional<string | null>;
  declare lotNumber: CreationOptional<string | null>;
  /** The body type decoded from the VIN (the feed's body style when it cannot be decoded). */
  declare bodyStyle: CreationOptional<string | null>;
  declare pickupCity: string;
  declare pickupState: string;
  declare pickupYard: string | null;
  declare deliveryCity: string | null;
  declare deliveryState: string | null;
  /** The delivery ZIP code when the buyer gave one: the city is then its area's centre. */
  declare deliveryZip: CreationOptional<string | null>;
  /** The delivery street, when the buyer gave one (docs/decisions/3531). */
  declare deliveryStreet: CreationOptional<string | null>;
  declare exportPort: string | null;
  declare exportPortState: string | null;
  declare destinationCountry: string | null;
  declare distanceMiles: number | null;
  /** Decimal string, two places: what the job pays before the platform fee. */
  declare payout: string;
  declare status: CreationOptional<OrderStatus>;
  declare claimedBy: CreationOptional<string | null>;
  declare claimedAt: CreationOptional<Date | null>;
  declare startedAt: CreationOptional<Date | null>;
  declare completedAt: CreationOptional<Date | null>;
  declare paymentStatus: CreationOptional<OrderPaymentStatus>;
  declare paidAt: CreationOptional<Date | null>;
  /** The provider order of the buyer's latest checkout for this job, if any. */
  declare paymentOrderId: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

ServiceOrder.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    serviceType: { type: DataTypes.TEXT, allowNull: false },
    lotId: { type: DataTypes.BIGINT, allowNull: true },
    purchaseId: { type: DataTypes.BIGINT, allowNull: true },
    requestedBy: { type: DataTypes.UUID, allowNull: true },
    createdBy: { type: DataTypes.UUID, allowNull: true },
    vehicleLabel: { type: DataTypes.TEXT, allowNull: false },
    vehicleType: { type: DataTypes.TEXT, allowNull: true },
    auctionHouse: { type: DataTypes.TEXT, allowNull: true },
    lotNumber: { type: DataTypes.TEXT, allowNull: true },
    bodyStyle: { type: DataTypes.TEXT, allowNull: true },
    pickupCity: { type: DataTypes.TEXT, allowNull: false },
    pickupState: { type: DataTypes.CHAR(2), allowNull: false },
    pickupYard: { type: DataTypes.TEXT, allowNull: true },
    deliveryCity: { type: DataTypes.TEXT, allowNull: true },
    deliveryState: { type: DataTypes.CHAR(2), allowNull: true },
    deliveryZip: { type: DataTypes.TEXT, allowNull: true },
    deliveryStreet: { type: DataTypes.TEXT, allowNull: true },
    exportPort: { type: DataTypes.TEXT, allowNull: true },
    exportPortState: { type: DataTypes.CHAR(2), allowNull: true },
    destinationCountry: { type: DataTypes.TEXT, allowNull: true },
    distanceMiles: { type: DataTypes.INTEGER, allowNull: true },
    payout: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "open" },
    claimedBy: { type: DataTypes.UUID, allowNull: true },
    claimedAt: { type: DataTypes.DATE, allowNull: true },
    startedAt: { type: DataTypes.DATE, allowNull: true },
    completedAt: { type: DataTypes.DATE, allowNull: true },
    paymentStatus: { type: DataTypes.TEXT, allowNull: false, defaultValue: "not_required" },
    paidAt: { type: DataTypes.DATE, allowNull: true },
    paymentOrderId: { type: DataTypes.UUID, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "service_orders" },
);

/** What a buyer paid for one job: from the deposit (a ledger entry) or through the provider. */
export class ServiceOrderCharge extends Model<
  InferAttributes<ServiceOrderCharge>,
  InferCreationAttributes<ServiceOrderCharge>
> {
  declare id: CreationOptional<string>;
  declare serviceOrderId: string;
  declare userId: string;
  declare amount: string;
  declare source: "deposit" | "gateway";
  declare depositEntryId: string | null;
  declare paymentOrderId: string | null;
  declare createdAt: CreationOptional<Date>;
}

ServiceOrderCharge.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    serviceOrderId: { type: DataTypes.BIGINT, allowNull: false },
    userId: { type: DataTypes.UUID, allowNull: false },
    amount: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    source: { type: DataTypes.TEXT, allowNull: false },
    depositEntryId: { type: DataTypes.BIGINT, allowNull: true },
    paymentOrderId: { type: DataTypes.UUID, allowNull: true },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "service_order_charges", updatedAt: false },
);

/** One credit to a provider for one completed job: the gross, the platform fee, the net. */
export class ProviderEarning extends Model<
  InferAttributes<ProviderEarning>,
  InferCreationAttributes<ProviderEarning>
> {
  declare id: CreationOptional<string>;
  declare providerId: string;
  declare serviceOrderId: string;
  declare gross: string;
  declare platformFee: string;
  declare net: string;
  declare feeBasisPoints: number;
  declare createdAt: CreationOptional<Date>;
}

ProviderEarning.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    providerId: { type: DataTypes.UUID, allowNull: false },
    serviceOrderId: { type: DataTypes.BIGINT, allowNull: false },
    gross: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    platformFee: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    net: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
    feeBasisPoints: { type: DataTypes.INTEGER, allowNull: false },
    createdAt: DataTypes.DATE,
  },
  { sequelize, tableName: "provider_earnings", updatedAt: false },
);

AffiliateApplication.belongsTo(User, { foreignKey: "userId", as: "applicant" });
// The admin who approved or rejected the application (reviewed_by), named in Recent decisions.
AffiliateApplication.belongsTo(User, {
  foreignKey: "reviewedBy",
  as: "reviewer",
  constraints: false,
});
ServiceOrder.belongsTo(User, { foreignKey: "requestedBy", as: "requester" });
ProviderEarning.belongsTo(ServiceOrder, { foreignKey: "serviceOrderId" });
