import { sequelize } from "~/models/db.server";
import { AppSetting } from "~/models/admin.server";
import type { User } from "~/models/user.server";
import { DEFAULT_BETA_BANNER_TEXT as DEFAULT_BANNER_TEXT } from "~/utils/shell";
import { wantsJson } from "~/http/http.server";
import { env } from "~/platform/env.server";
import { recordAdminAction } from "./audit.server";

export type BetaBanner = { enabled: boolean; text: string };
export type Settings = {
  maintenanceMode: boolean;
  registrationOpen: boolean;
  betaBanner: BetaBanner;
};

export const DEFAULT_SETTINGS: Settings = {
  maintenanceMode: false,
  registrationOpen: true,
  betaBanner: {
    enabled: true,
    text: DEFAULT_BANNER_TEXT,
  },
};

const KEYS = {
  maintenanceMode: "maintenance_mode",
  registrationOpen: "registration_open",
  betaBanner: "beta_banner",
} as const;

/** The live settings (one small query, so a change takes effect for everyone at once). */
// Every page reads the settings: this process keeps them for a second (SETTINGS_MEMORY_MS). A
// change made here is seen at once (updateSetting forgets them); other machines see it within the
// second.
let remembered: { at: number; settings: Promise<Settings> } | undefined;

/** The admin's settings (maintenance, registration, beta banner), at most a second old. */
export function getSettings(): Promise<Settings> {
  const at = Date.now();
  if (remembered && at - remembered.at < env().SETTINGS_MEMORY_MS) return remembered.settings;
  const settings = readSettings();
  remembered = { at, settings };
  settings.catch(() => {
    if (remembered?.settings === settings) remembered = undefined;
  });
  return settings;
}

async function readSettings(): Promise<Settings> {
  const rows = await AppSetting.findAll({ raw: true });
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  const maintenance = stored.get("maintenance_mode");
  const registration = stored.get("registration_open");
  const banner = stored.get("beta_banner") as Partial<BetaBanner> | undefined;
  return {
    maintenanceMode:
      typeof maintenance === "boolean" ? maintenance : DEFAULT_SETTINGS.maintenanceMode,
    registrationOpen:
      typeof registration === "boolean" ? registration : DEFAULT_SETTINGS.registrationOpen,
    betaBanner: {
      enabled:
        typeof banner?.enabled === "boolean" ? banner.enabled : DEFAULT_SETTINGS.betaBanner.enabled,
      text:
        typeof banner?.text === "string" && banner.text
          ? banner.text
          : DEFAULT_SETTINGS.betaBanner.text,
    },
  };
}

/** Changes one setting and writes the audit entry in the same transaction. */
export async function updateSetting<K extends keyof Settings>(
  admin: User,
  name: K,
  value: Settings[K],
) {
  remembered = undefined;
  const done = await sequelize.transaction(async (transaction) => {
    const key = KEYS[name];
    const existing = await AppSetting.findByPk(key, { transaction, lock: transaction.LOCK.UPDATE });
    const before = existing ? existing.value : (DEFAULT_SETTINGS[name] as unknown);
    await AppSetting.upsert({ key, value: value as unknown, updatedBy: admin.id }, { transaction });
    await recordAdminAction(
      admin,
      `settings.${key}`,
      { type: "setting", id: key },
      { before, after: value },
      transaction,
    );
  });
  remembered = undefined;
  return done;
}

const ALWAYS_OPEN = [
  "/api/login",
  // the registration form posts here (docs/decisions/3520), as it did to /api/login
  "/register",
  "/api/callback",
  "/api/logout",
  "/healthz",
  "/api/auth/user",
];

export const MAINTENANCE_MESSAGE =
  "BidYard is down for scheduled maintenance. Please check back shortly.";
/** How long a client is told to wait (Retry-After), and how often the page reloads itself. */
export const MAINTENANCE_RETRY_SECONDS = 300;

const alwaysOpen = (request: Request) => {
  const { pathname } = new URL(request.url);
  return ALWAYS_OPEN.some((path) => pathname === path || pathname.startsWith(`${path}/`));
};

/**
 * True when this request meets the maintenance page: maintenance is on, the caller is not an
 * admin and the path is not one that always stays open (signing in and out, health).
 */
export function closedForMaintenance(
  request: Request,
  user: Pick<User, "role"> | null,
  settings: Pick<Settings, "maintenanceMode">,
) {
  return settings.maintenanceMode && user?.role !== "admin" && !alwaysOpen(request);
}

/**
 * During maintenance, everyone but admins gets the maintenance page (503); signing in stays open
 * so an admin can get in. Pass the settings when the caller has already read them.
 */
export async function maintenanceGate(
  request: Request,
  user: Pick<User, "role"> | null,
  settings?: Pick<Settings, "maintenanceMode">,
) {
  if (alwaysOpen(request) || user?.role === "admin") return;
  if (closedForMaintenance(request, user, settings ?? (await getSettings()))) {
    const headers = { "Retry-After": String(MAINTENANCE_RETRY_SECONDS) };
    throw wantsJson(request)
      ? Response.json(
          { error: MAINTENANCE_MESSAGE, message: MAINTENANCE_MESSAGE },
          { status: 503, headers },
        )
      : new Response(MAINTENANCE_MESSAGE, { status: 503, headers });
  }
}
