import fs from "node:fs";
import path from "node:path";
import { E2E_DATA_DIR } from "./env";

/**
 * The shop's outbox messages (no SMTP configured: one .eml file each) that mention a text,
 * decoded enough to read: quoted-printable soft breaks and =XX escapes undone.
 */
export function outboxMessagesWith(text: string): string[] {
  const dir = path.join(E2E_DATA_DIR, "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) =>
      fs
        .readFileSync(path.join(dir, f), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    )
    .filter((eml) => eml.includes(text));
}
