import path from "node:path";
import { z } from "zod";
import { DEFAULT_CEILINGS, HIGHEST_CEILING, type OrderCeilings } from "~/config/ceilings";
import { DEFAULT_LOG_BUFFER_BYTES, LOG_LEVELS, type LogLevel } from "~/config/log.server";
import { DEFAULT_PROOF_DIFFICULTY, type ProofDifficulty } from "~/config/proof-of-work";
import type { S3Settings } from "~/config/s3-settings";
import { DEMO_SHOP_DETAILS, type ShopDetails } from "~/config/shop-details";
import { StartupError } from "./startup-error";

// Validation messages people read are in Spanish.
z.config(z.locales.es());

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    error: "debe ser true o false",
  })
  .transform((v) => ["true", "1", "yes", "on"].includes(v));

const phone = z
  .string()
  .regex(/^\d{10,15}$/, "debe ser el número con lada internacional, solo dígitos (p. ej. 5215512345678)");

/** A web address: only http(s), since these end up in links, frames and redirects. */
const webUrl = (example = "") =>
  z.url({ protocol: /^https?$/, error: `debe ser una dirección completa http(s)${example}` });

/** A ceiling of pieces in one order (app/orders/ceilings.ts): the owner may raise it, within reason. */
const ceiling = (fallback: number) =>
  z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(1, `debe estar entre 1 y ${HIGHEST_CEILING}`)
    .max(HIGHEST_CEILING, `debe estar entre 1 y ${HIGHEST_CEILING}`)
    .default(fallback);

/** Every setting the server reads. `.env.example` documents each one. */
const schema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(0, "debe estar entre 0 y 65535")
    .max(65535, "debe estar entre 0 y 65535")
    .default(3000),
  PUBLIC_URL: webUrl(", p. ej. https://tienda.ejemplo.mx").optional(),
  TRUST_PROXY: flag.default(false),
  LOG_REQUESTS: flag.default(true),
  LOG_BUFFER_BYTES: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(65_536, "debe ser al menos 65536 (64 KB)")
    .default(DEFAULT_LOG_BUFFER_BYTES),
  PAGE_RENDER_THREAD: flag.default(true),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `debe ser uno de: ${LOG_LEVELS.join(", ")}` }).default("info"),
  REQUEST_LIMITS: flag.default(true),
  CHECKOUT_CHALLENGE: flag.default(true),
  METRICS_TOKEN: z
    .string()
    .min(24, "debe tener al menos 24 caracteres (p. ej. openssl rand -hex 24)")
    .optional(),
  // Lowered only for benchmarks and tests (app/config/proof-of-work.ts).
  PROOF_OF_WORK_COST: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(1, "debe estar entre 1 y 1000000")
    .max(1_000_000, "debe estar entre 1 y 1000000")
    .default(DEFAULT_PROOF_DIFFICULTY.cost),
  PROOF_OF_WORK_TRIES: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(1, "debe estar entre 1 y 1000000")
    .max(1_000_000, "debe estar entre 1 y 1000000")
    .default(DEFAULT_PROOF_DIFFICULTY.tries),
  ORDER_MAX_PER_PRODUCT: ceiling(DEFAULT_CEILINGS.perProduct),
  ORDER_MAX_PIECES: ceiling(DEFAULT_CEILINGS.pieces),

  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DEMO_DATA: flag.optional(),
  DEMO_ART_CACHE: z.string().min(1).optional(),
  DEMO_PAYMENTS: flag.optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "debe ser una clave secreta de Stripe (sk_…)")
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "debe ser el secreto del webhook (whsec_…)")
    .optional(),
  STRIPE_API_BASE: webUrl().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "debe ser smtp://usuario:contraseña@servidor:587 o smtps://…")
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  MAIL_DAILY_LIMIT: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(100, "debe ser al menos 100 (los correos que tu servicio deja enviar en 24 horas)")
    .max(10_000_000, "debe ser como mucho 10000000")
    .optional(),
  INVOICING: z.enum(["local"], { error: "debe ser local (la única por ahora)" }).default("local"),
  OUTBOX_DIR: z.string().min(1).optional(),
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_STORAGE: z.enum(["local", "s3"], { error: "debe ser local o s3" }).optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "debe ser un nombre de bucket válido (minúsculas, números, - y .)",
    )
    .optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ENDPOINT: webUrl(", p. ej. https://s3.us-east-1.amazonaws.com").optional(),
  S3_PUBLIC_URL: webUrl(", p. ej. https://medios.tienda.mx").optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),

  SESSION_SECRET: z
    .string()
    .min(32, "debe tener al menos 32 caracteres (p. ej. openssl rand -hex 32)")
    .optional(),
  ADMIN_IDLE_MINUTES: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(1, "debe estar entre 1 y 1440")
    .max(1440, "debe estar entre 1 y 1440")
    .default(120),
  ADMIN_SESSION_HOURS: z.coerce
    .number({ error: "debe ser un número" })
    .int("debe ser un número entero")
    .min(1, "debe estar entre 1 y 720")
    .max(720, "debe estar entre 1 y 720")
    .default(12),
  // Test benches only: scrypt at a small fraction of its cost, and no spacing between hashes.
  QUICK_PASSWORD_HASHES: flag.default(false),

  SHOP_NAME: z.string().min(1).default(DEMO_SHOP_DETAILS.name),
  SHOP_EMAIL: z.email({ error: "debe ser un correo válido" }).default(DEMO_SHOP_DETAILS.email),
  SHOP_WHATSAPP: phone.default(DEMO_SHOP_DETAILS.whatsapp),
  SHOP_INSTAGRAM: webUrl().default(DEMO_SHOP_DETAILS.instagramUrl),
  SHOP_AGENCY_NAME: z.string().min(1).default(DEMO_SHOP_DETAILS.agencyName),
  SHOP_AGENCY_URL: webUrl().default(DEMO_SHOP_DETAILS.agencyUrl),
  PROCESS_VIDEO_URL: webUrl().optional(),
});

export type DatabaseTarget = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export interface Config {
  env: "production" | "development" | "test";
  host: string;
  port: number;
  publicUrl: string | undefined;
  trustProxy: boolean;
  logRequests: boolean;
  /** Most bytes of access lines kept in memory while the output takes none (app/config/log.server.ts). */
  logBufferBytes: number;
  /** The page cache's pages are rendered on a thread of their own (decision 12); false: in line. */
  pageRenderThread: boolean;
  /** The least severe log lines written (app/config/log.server.ts). */
  logLevel: LogLevel;
  dataDir: string;
  /** Local media (the embedded default). Unused when media live in S3-compatible storage. */
  mediaDir: string;
  /** Where media are stored: local disk under mediaDir, or S3-compatible object storage. */
  media: { kind: "local" } | ({ kind: "s3" } & S3Settings);
  database: DatabaseTarget;
  databasePoolMax: number;
  /** Drop-day request limits (app/rate-limits); off only for tests that are not about them. */
  requestLimits: boolean;
  /** A proof of work (ALTCHA) to start a checkout (app/rate-limits/proof-of-work.server.ts). */
  checkoutChallenge: boolean;
  /** How hard that proof is: PBKDF2 iterations per try, and the most tries (benchmarks lower it). */
  proofOfWork: ProofDifficulty;
  /** Pieces of one product, and in all, one order may take. */
  orderCeilings: OrderCeilings;
  /** The bearer token that reads /metrics; null: /metrics does not exist (404). */
  metricsToken: string | null;
  /** Load the demo catalogue on the first start of an empty database. */
  demoData: boolean;
  /** A folder of demo art already drawn (test runs); null: the demo catalogue is drawn every time. */
  demoArtCache: string | null;
  mail: {
    smtpUrl: string | null;
    from: string;
    outboxDir: string;
    /** The mail account's quota per 24 hours: opening notices leave a quarter of it free. */
    dailyLimit: number | null;
  };
  /** Who makes the facturas buyers ask for (decision 45): 'local' records them for the accountant. */
  invoicing: { provider: "local" };
  stripe: { secretKey: string; webhookSecret: string; apiBase: string | null } | null;
  admin: {
    /** Signs session cookies. Null in the try-it mode: one is generated and kept in DATA_DIR. */
    sessionSecret: string | null;
    idleMinutes: number;
    absoluteHours: number;
    /** QUICK_PASSWORD_HASHES: a test bench's cheap hashes (never on a public HTTPS shop). */
    quickPasswordHashes: boolean;
  };
  shop: PublicShopSettings;
}

/** The part of the configuration that may reach the browser (the first values of Configuración). */
export type PublicShopSettings = ShopDetails;

export function parseDatabaseTarget(url: string | undefined, dataDir: string): DatabaseTarget {
  if (!url) return { kind: "sqlite", file: path.resolve(dataDir, "shop.db") };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: "postgres", url };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new StartupError(
      "Configuración inválida:\n  DATABASE_URL: usa postgres://… para PostgreSQL o la ruta de un archivo para SQLite",
    );
  }
  return { kind: "sqlite", file: path.resolve(url.replace(/^(sqlite|file):/, "")) };
}

/** S3-compatible storage when asked for (MEDIA_STORAGE=s3, or a bucket named); local disk otherwise. */
function mediaTarget(e: z.output<typeof schema>): Config["media"] {
  const kind = e.MEDIA_STORAGE ?? (e.S3_BUCKET ? "s3" : "local");
  if (kind === "local") return { kind };
  const missing = [
    !e.S3_BUCKET && "  S3_BUCKET: hace falta para guardar los medios en S3",
    !e.S3_PUBLIC_URL &&
      "  S3_PUBLIC_URL: hace falta con S3: la dirección pública desde donde se ven los archivos (el bucket o una CDN)",
    Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY) &&
      "  S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: van juntas (o ninguna, para usar las credenciales del entorno)",
  ].filter((line): line is string => typeof line === "string");
  if (missing.length > 0) throw new StartupError(`Configuración inválida:\n${missing.join("\n")}`);
  return {
    kind,
    bucket: e.S3_BUCKET ?? "",
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT ?? null,
    publicUrl: (e.S3_PUBLIC_URL ?? "").replace(/\/+$/, ""),
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : null,
  };
}

/** Parses the environment once at start-up; a bad value throws a StartupError naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings (e.g. `PUBLIC_URL=` in a .env file) mean "not set".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new StartupError(`Configuración inválida:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const database = parseDatabaseTarget(e.DATABASE_URL, dataDir);
  const mediaDir = path.resolve(e.MEDIA_DIR ?? path.join(dataDir, "media"));
  if (database.kind === "sqlite" && !path.relative(mediaDir, database.file).startsWith("..")) {
    // Everything under the media folder may be served to browsers; the database must not be.
    throw new StartupError(
      `Configuración inválida:\n  MEDIA_DIR: no puede contener la base de datos (${database.file}); usa una carpeta aparte`,
    );
  }
  const media = mediaTarget(e);
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new StartupError(
      "Configuración inválida:\n  STRIPE_WEBHOOK_SECRET: hace falta junto con STRIPE_SECRET_KEY para confirmar los pagos",
    );
  }
  const stripe =
    e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          apiBase: e.STRIPE_API_BASE ?? null,
        }
      : null;
  if (stripe && !e.PUBLIC_URL) {
    // Stripe sends shoppers back to our success and cancel pages: they must not depend on the
    // Host header of whoever started the checkout.
    throw new StartupError(
      "Configuración inválida:\n  PUBLIC_URL: hace falta con Stripe (p. ej. https://tienda.ejemplo.mx)",
    );
  }
  // Without Stripe the shop takes payments on the built-in demo page (services pick it whenever
  // `stripe` is null): on by default in the embedded mode, but a public HTTPS address means a real
  // shop, so there and on PostgreSQL the demo page must be asked for explicitly.
  const looksPublic = e.PUBLIC_URL?.startsWith("https://") ?? false;
  // A live key, secret or restricted: real money.
  const liveStripe = /^(sk|rk)_live_/.test(e.STRIPE_SECRET_KEY ?? "");
  const demoPaymentsAllowed = e.DEMO_PAYMENTS ?? (database.kind === "sqlite" && !looksPublic);
  if (!stripe && !demoPaymentsAllowed) {
    throw new StartupError(
      "Configuración inválida:\n  DEMO_PAYMENTS: no hay otro proveedor de pagos configurado; usa DEMO_PAYMENTS=true para la página de pago de demostración",
    );
  }
  if (!e.SESSION_SECRET && (database.kind === "postgres" || looksPublic)) {
    // Several app servers, or a public shop: every server must sign cookies with the same secret.
    throw new StartupError(
      "Configuración inválida:\n  SESSION_SECRET: hace falta para las sesiones de administración (al menos 32 caracteres; p. ej. openssl rand -hex 32)",
    );
  }
  if (e.QUICK_PASSWORD_HASHES && (looksPublic || liveStripe)) {
    // A real shop's passwords are hashed at full cost; the quick hashes are for test benches.
    throw new StartupError(
      "Configuración inválida:\n  QUICK_PASSWORD_HASHES: solo para bancos de pruebas; una tienda pública (PUBLIC_URL https o una clave de Stripe en vivo) cifra las contraseñas con el costo completo",
    );
  }
  if (e.ADMIN_IDLE_MINUTES > e.ADMIN_SESSION_HOURS * 60) {
    throw new StartupError(
      "Configuración inválida:\n  ADMIN_IDLE_MINUTES: no puede ser mayor que ADMIN_SESSION_HOURS",
    );
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ""),
    trustProxy: e.TRUST_PROXY,
    logRequests: e.LOG_REQUESTS,
    logBufferBytes: e.LOG_BUFFER_BYTES,
    pageRenderThread: e.PAGE_RENDER_THREAD,
    logLevel: e.LOG_LEVEL,
    requestLimits: e.REQUEST_LIMITS,
    checkoutChallenge: e.CHECKOUT_CHALLENGE,
    metricsToken: e.METRICS_TOKEN ?? null,
    proofOfWork: { cost: e.PROOF_OF_WORK_COST, tries: e.PROOF_OF_WORK_TRIES },
    // A product's ceiling above the order's would never be reached: the order's is the true one.
    orderCeilings: {
      perProduct: Math.min(e.ORDER_MAX_PER_PRODUCT, e.ORDER_MAX_PIECES),
      pieces: e.ORDER_MAX_PIECES,
    },
    dataDir,
    mediaDir,
    media,
    database,
    databasePoolMax: e.DATABASE_POOL_MAX,
    // Demo data is on by default only in the embedded mode tried out on a machine: a real shop
    // (PostgreSQL, a public HTTPS address or a live Stripe key) starts empty, and gets no demo
    // administrator whose password would go to its log.
    demoData: e.DEMO_DATA ?? (database.kind === "sqlite" && !looksPublic && !liveStripe),
    demoArtCache: e.DEMO_ART_CACHE ? path.resolve(e.DEMO_ART_CACHE) : null,
    stripe,
    invoicing: { provider: e.INVOICING },
    admin: {
      sessionSecret: e.SESSION_SECRET ?? null,
      idleMinutes: e.ADMIN_IDLE_MINUTES,
      absoluteHours: e.ADMIN_SESSION_HOURS,
      quickPasswordHashes: e.QUICK_PASSWORD_HASHES,
    },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `"${e.SHOP_NAME}" <${e.SHOP_EMAIL}>`,
      outboxDir: path.resolve(e.OUTBOX_DIR ?? path.join(dataDir, "outbox")),
      dailyLimit: e.MAIL_DAILY_LIMIT ?? null,
    },
    shop: {
      name: e.SHOP_NAME,
      email: e.SHOP_EMAIL,
      whatsapp: e.SHOP_WHATSAPP,
      instagramUrl: e.SHOP_INSTAGRAM,
      agencyName: e.SHOP_AGENCY_NAME,
      agencyUrl: e.SHOP_AGENCY_URL,
      processVideoUrl: e.PROCESS_VIDEO_URL ?? null,
    },
  };
}
