import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";
import { User } from "./user.server";

export const DOCUMENT_TYPES = ["license", "passport", "state_id"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const KYC_STATUSES = ["pending", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export class KycDocument extends Model<
  InferAttributes<KycDocument>,
  InferCreationAttributes<KycDocument>
> {
  declare id: CreationOptional<string>;
  declare userId: string;
  declare uploadId: string;
  declare documentType: DocumentType;
  declare objectKey: string;
  declare contentType: string;
  declare sizeBytes: number;
  declare status: CreationOptional<KycStatus>;
  declare rejectionReason: CreationOptional<string | null>;
  declare reviewedBy: CreationOptional<string | null>;
  declare reviewedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

KycDocument.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    uploadId: { type: DataTypes.BIGINT, allowNull: false },
    documentType: { type: DataTypes.TEXT, allowNull: false },
    objectKey: { type: DataTypes.TEXT, allowNull: false },
    contentType: { type: DataTypes.TEXT, allowNull: false },
    sizeBytes: { type: DataTypes.INTEGER, allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "pending" },
    rejectionReason: { type: DataTypes.TEXT, allowNull: true },
    reviewedBy: { type: DataTypes.UUID, allowNull: true },
    reviewedAt: { type: DataTypes.DATE, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "kyc_documents" },
);

KycDocument.belongsTo(User, { foreignKey: "userId", as: "user" });
