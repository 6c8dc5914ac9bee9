import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";

export class AppSetting extends Model<
  InferAttributes<AppSetting>,
  InferCreationAttributes<AppSetting>
> {
  declare key: "maintenance_mode" | "registration_open" | "beta_banner";
  declare value: unknown;
  declare updatedBy: string | null;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

AppSetting.init(
  {
    key: { type: DataTypes.TEXT, primaryKey: true },
    value: { type: DataTypes.JSONB, allowNull: false },
    updatedBy: { type: DataTypes.UUID, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "app_settings" },
);

export class AdminAuditEntry extends Model<
  InferAttributes<AdminAuditEntry>,
  InferCreationAttributes<AdminAuditEntry>
> {
  declare id: CreationOptional<string>;
  declare adminId: string | null;
  declare adminEmail: string;
  declare action: string;
  declare targetType: string;
  declare targetId: string | null;
  declare before: unknown;
  declare after: unknown;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

AdminAuditEntry.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    adminId: { type: DataTypes.UUID, allowNull: true },
    adminEmail: { type: DataTypes.TEXT, allowNull: false },
    action: { type: DataTypes.TEXT, allowNull: false },
    targetType: { type: DataTypes.TEXT, allowNull: false },
    targetId: { type: DataTypes.TEXT, allowNull: true },
    before: { type: DataTypes.JSONB, allowNull: true },
    after: { type: DataTypes.JSONB, allowNull: true },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "admin_audit_log" },
);
