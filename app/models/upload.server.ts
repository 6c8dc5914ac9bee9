import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";

export const UPLOAD_STATUSES = ["issued", "stored", "attached", "discarded"] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/**
 * One object a user put (or may put) in storage. `issued`: an upload URL was handed out;
 * `stored`: the object is there and passed its checks; `attached`: a record uses it;
 * `discarded`: refused or abandoned, the object deleted.
 */
export class Upload extends Model<InferAttributes<Upload>, InferCreationAttributes<Upload>> {
  declare id: CreationOptional<string>;
  declare userId: string;
  /** What the object is for, e.g. kyc_document, listing_photo, affiliate_licence. */
  declare purpose: string;
  declare objectKey: string;
  declare contentType: string;
  declare sizeBytes: number;
  declare status: CreationOptional<UploadStatus>;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Upload.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    purpose: { type: DataTypes.TEXT, allowNull: false },
    objectKey: { type: DataTypes.TEXT, allowNull: false },
    contentType: { type: DataTypes.TEXT, allowNull: false },
    sizeBytes: { type: DataTypes.INTEGER, allowNull: false },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: "issued" },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "uploads" },
);
