import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "~/config/env.server";

/** What administrator sign-in needs from the shop's configuration (not the shop's own settings). */
export interface AuthSettings {
  /** Signs the session cookie; at least 32 characters. */
  secret: string;
  /** Where the shop is served, e.g. https://tienda.ejemplo.mx. */
  baseUrl: string;
  /** A session unused this long ends (sliding). */
  idleMinutes: number;
  /** A session ends this long after sign-in, however active. */
  absoluteHours: number;
  /** The name the authenticator app shows next to the account (the shop's name). */
  issuer?: string;
  /**
   * A test bench's password hashes (QUICK_PASSWORD_HASHES): scrypt at a small fraction of its
   * cost, unspaced. What such a shop stores only such a shop can verify.
   */
  quickPasswordHashes?: boolean;
}

/**
 * The try-it mode needs no SESSION_SECRET: one is generated on the first start and kept beside
 * the database, readable only by the shop's user, so sessions survive a restart.
 */
export function readOrCreateSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    // Already there (an earlier start, or another process that got there first).
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return fs.readFileSync(file, "utf8").trim();
}

/** The sign-in settings from the shop's configuration: the same for the server and the CLI. */
export function authSettings(config: Config): AuthSettings {
  return {
    secret: config.admin.sessionSecret ?? readOrCreateSessionSecret(config.dataDir),
    baseUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    idleMinutes: config.admin.idleMinutes,
    absoluteHours: config.admin.absoluteHours,
    issuer: config.shop.name,
    quickPasswordHashes: config.admin.quickPasswordHashes,
  };
}
