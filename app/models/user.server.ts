import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
} from "sequelize";
import { sequelize } from "./db.server";

export const ROLES = ["user", "admin"] as const;
export const ACCOUNT_TYPES = ["buyer", "affiliate"] as const;
export type Role = (typeof ROLES)[number];
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<string>;
  declare oidcSubject: string | null;
  declare email: string;
  declare firstName: string | null;
  declare lastName: string | null;
  /** Typed when registering (docs/decisions/3304); null for accounts made before. */
  declare phone: CreationOptional<string | null>;
  declare role: CreationOptional<Role>;
  declare accountType: CreationOptional<AccountType>;
  declare verified: CreationOptional<boolean>;
  /** Decimal string, two places: the deposit that sets buying power. */
  declare deposit: CreationOptional<string>;
  /** IANA zone for times shown without JavaScript (docs/decisions/1802). */
  declare timeZone: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

User.init(
  {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    oidcSubject: { type: DataTypes.TEXT, allowNull: true },
    email: { type: DataTypes.TEXT, allowNull: false },
    firstName: { type: DataTypes.TEXT, allowNull: true },
    lastName: { type: DataTypes.TEXT, allowNull: true },
    phone: { type: DataTypes.TEXT, allowNull: true },
    role: { type: DataTypes.TEXT, allowNull: false, defaultValue: "user" },
    accountType: { type: DataTypes.TEXT, allowNull: false, defaultValue: "buyer" },
    verified: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    deposit: { type: DataTypes.DECIMAL(12, 2), allowNull: false, defaultValue: "0.00" },
    timeZone: { type: DataTypes.TEXT, allowNull: false, defaultValue: "America/Chicago" },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "users" },
);

export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  /** SHA-256 of the opaque id in the cookie, so a leaked table holds no usable session. */
  declare id: string;
  declare userId: string;
  declare expiresAt: Date;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

Session.init(
  {
    id: { type: DataTypes.TEXT, primaryKey: true },
    userId: { type: DataTypes.UUID, allowNull: false },
    expiresAt: { type: DataTypes.DATE, allowNull: false },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "sessions" },
);

export class PrelaunchSignup extends Model<
  InferAttributes<PrelaunchSignup>,
  InferCreationAttributes<PrelaunchSignup>
> {
  declare id: CreationOptional<string>;
  declare email: string;
  declare firstName: string | null;
  declare lastName: string | null;
  declare source: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

PrelaunchSignup.init(
  {
    id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
    email: { type: DataTypes.TEXT, allowNull: false },
    firstName: { type: DataTypes.TEXT, allowNull: true },
    lastName: { type: DataTypes.TEXT, allowNull: true },
    source: { type: DataTypes.TEXT, allowNull: false, defaultValue: "website" },
    createdAt: DataTypes.DATE,
    updatedAt: DataTypes.DATE,
  },
  { sequelize, tableName: "prelaunch_signups" },
);

User.hasMany(Session, { foreignKey: "userId" });
Session.belongsTo(User, { foreignKey: "userId" });
