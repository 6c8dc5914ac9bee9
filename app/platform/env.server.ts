import * as z from "zod";

const LOCAL_DATABASE_URL = "postgres://postgres:postgres@127.0.0.1:54329/bidyard";
const LOCAL_SECRET = "bidyard-local-development-secret-not-for-production";

const optional = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== "" ? value.trim() : undefined));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  APP_URL: optional,
  DATABASE_URL: optional,
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  /**
   * A streaming read replica near this machine, read by the pages that opt in when the machine
   * runs outside the primary region (docs/decisions/3701). `{region}` becomes FLY_REGION, so one
   * setting serves every region: postgres://…@{region}.bidyard-db.internal:5433/bidyard.
   */
  DATABASE_REPLICA_URL: optional,
  /** The region the database primary is in (Fly sets it from fly.toml's primary_region). */
  PRIMARY_REGION: optional,
  /** The region this machine runs in (Fly sets it). */
  FLY_REGION: optional,
  /**
   * How long (ms) a read in a replica region waits for the replica to reach the reader's own last
   * write before it is replayed to the primary region: about one round trip to it.
   */
  REPLICA_WAIT_MS: z.coerce.number().int().min(0).max(5_000).default(150),
  /** A replica further behind than this (ms) is not read: its pages are replayed to the primary. */
  REPLICA_MAX_LAG_MS: z.coerce.number().int().positive().default(5_000),
  /** bids one person may place per minute (the benchmark raises it; people never reach 60) */
  BID_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(60),
  SESSION_SECRET: optional,
  OIDC_ISSUER: optional,
  OIDC_CLIENT_ID: optional,
  OIDC_CLIENT_SECRET: optional,
  LOCAL_OIDC_PORT: z.coerce.number().int().positive().default(3555),
  ADMIN_EMAILS: optional,
  PAYPAL_CLIENT_ID: optional,
  PAYPAL_CLIENT_SECRET: optional,
  PAYPAL_API_BASE: z.string().url().default("https://api-m.sandbox.paypal.com"),
  /**
   * Where uploaded files live: `s3` (the bucket below) or `local` (the folder UPLOADS_DIR, one
   * machine only). Unset: s3 when S3_BUCKET is set, else local; production refuses to guess
   * (docs/decisions/3105).
   */
  FILE_STORAGE: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() || undefined : value),
    z.enum(["s3", "local"]).optional(),
  ),
  S3_BUCKET: optional,
  S3_ENDPOINT: optional,
  S3_REGION: z.string().default("auto"),
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  UPLOADS_DIR: z.string().default(".data/uploads"),
  /** the unpacked NHTSA vPIC database the VIN decoder reads (docs/decisions/2101) */
  VPIC_DB_PATH: z.string().default(".data/vpic/vpic.lite.db"),
  PLATFORM_FEE_PERCENT: z.coerce.number().min(0).max(100).default(10),
  /** smtp(s)://user:pass@host:port for outgoing mail; unset, mail waits in the outbox. */
  SMTP_URL: optional,
  MAIL_FROM: z.string().default("BidYard <no-reply@bidyard.local>"),
  /**
   * Lets the outbound fetcher (lot pictures) reach loopback and private addresses. Off by default:
   * a feed must not make the server fetch from its own network. Tests (NODE_ENV=test) allow them.
   */
  REMOTE_FETCH_ALLOW_PRIVATE: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /**
   * How long (ms) a process keeps the admin settings it read (every page reads them). A test
   * that takes the database away sets 0, so every answer reads them afresh (docs/decisions/3641).
   */
  SETTINGS_MEMORY_MS: z.coerce.number().int().min(0).default(1_000),
  ALLOW_TEST_PAYMENTS: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /**
   * Keeps a demo lot ending every few minutes (docs/decisions/2755). Unset: on in development and
   * on a production build that allows test payments (staging), off otherwise.
   */
  DEMO_AUCTIONS: z.enum(["on", "off"]).optional(),
});

export type Env = ReturnType<typeof parseEnv>;

/** Reads and checks the environment; production refuses to start without its secrets. */
export function parseEnv(source: Record<string, string | undefined> = process.env) {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid environment:\n  ${problems.join("\n  ")}`);
  }
  const raw = parsed.data;
  const production = raw.NODE_ENV === "production";

  if (production) {
    const missing: string[] = [];
    const need = (name: keyof typeof raw) => {
      if (!raw[name]) missing.push(name);
    };
    need("DATABASE_URL");
    need("SESSION_SECRET");
    need("APP_URL");
    need("OIDC_ISSUER");
    need("OIDC_CLIENT_ID");
    need("OIDC_CLIENT_SECRET");
    if (!raw.ALLOW_TEST_PAYMENTS) {
      need("PAYPAL_CLIENT_ID");
      need("PAYPAL_CLIENT_SECRET");
    }
    if (missing.length > 0) {
      throw new Error(`Production needs these settings: ${missing.join(", ")}`);
    }
    const secrets = raw.SESSION_SECRET!.split(",").map((s) => s.trim());
    if (secrets.some((secret) => secret.length < 32 || secret === LOCAL_SECRET)) {
      throw new Error("SESSION_SECRET must be one or more secrets of at least 32 characters");
    }
  }

  const fileStorage = chooseFileStorage(raw.FILE_STORAGE, Boolean(raw.S3_BUCKET), production);

  const port = raw.PORT;
  return {
    ...raw,
    isProduction: production,
    APP_URL: raw.APP_URL ?? `http://localhost:${port}`,
    DATABASE_URL: raw.DATABASE_URL ?? LOCAL_DATABASE_URL,
    SESSION_SECRETS: (raw.SESSION_SECRET ?? LOCAL_SECRET)
      .split(",")
      .map((secret) => secret.trim())
      .filter(Boolean),
    adminEmails: (raw.ADMIN_EMAILS ?? "")
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    paypalConfigured: Boolean(raw.PAYPAL_CLIENT_ID && raw.PAYPAL_CLIENT_SECRET),
    demoAuctions: raw.DEMO_AUCTIONS
      ? raw.DEMO_AUCTIONS === "on"
      : raw.NODE_ENV === "development" || (production && raw.ALLOW_TEST_PAYMENTS),
    fileStorage,
    s3Configured: fileStorage === "s3",
    ...regionsOf(raw),
  };
}

/**
 * Where uploaded files live (docs/decisions/3105). In production the local disk is never a
 * fallback: a machine's disk is replaced at each deploy unless a volume is mounted, and a second
 * machine never sees it, so the operator must ask for it by name.
 */
function chooseFileStorage(
  setting: "s3" | "local" | undefined,
  bucket: boolean,
  production: boolean,
): "s3" | "local" {
  if (setting === "s3" && !bucket) {
    throw new Error("FILE_STORAGE=s3 needs S3_BUCKET (and S3_ENDPOINT and its keys, unless AWS)");
  }
  if (setting === "local" && bucket) {
    throw new Error(
      "FILE_STORAGE=local and S3_BUCKET are both set: unset S3_BUCKET to keep files on this " +
        "machine's disk, or set FILE_STORAGE=s3 to keep them in the bucket",
    );
  }
  if (setting) return setting;
  if (bucket) return "s3";
  if (production) {
    throw new Error(
      "Production needs S3_BUCKET or FILE_STORAGE=local for uploaded files: S3_BUCKET (with " +
        "S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) keeps them in an S3-compatible " +
        "bucket every machine shares; FILE_STORAGE=local keeps them in UPLOADS_DIR on this " +
        "machine's disk, for one machine with UPLOADS_DIR on a mounted volume (README, Deploying " +
        "to Fly.io)",
    );
  }
  return "local";
}

let cached: Env | undefined;

/** The validated environment, read once. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Tests change process.env between cases; this forgets the cached copy. */
export function resetEnvForTests() {
  cached = undefined;
}

/**
 * Where this machine runs (docs/decisions/3701). Outside the primary region it reads the replica
 * (when one is set) for the pages that opt in and replays everything else to the primary region.
 * Without both regions known (one region, a laptop, tests) it is the primary region.
 */
function regionsOf(raw: {
  PRIMARY_REGION?: string;
  FLY_REGION?: string;
  DATABASE_REPLICA_URL?: string;
}) {
  const primaryRegion = raw.PRIMARY_REGION ?? null;
  const region = raw.FLY_REGION ?? primaryRegion;
  const replicaRegion = Boolean(primaryRegion && region && region !== primaryRegion);
  return {
    region,
    primaryRegion,
    replicaRegion,
    /** The replica this machine reads: only outside the primary region. */
    replicaUrl:
      replicaRegion && raw.DATABASE_REPLICA_URL
        ? raw.DATABASE_REPLICA_URL.replaceAll("{region}", region!)
        : null,
  };
}
