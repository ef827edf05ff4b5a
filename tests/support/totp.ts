import crypto from "node:crypto";

/**
 * RFC 6238 time-based codes (HMAC-SHA1, 6 digits, 30-second steps), written apart from the shop's
 * sign-in library so that the tests check its codes against the standard, as an authenticator app does.
 */
export const TOTP_STEP_SECONDS = 30;

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.replace(/[\s=]/g, "").toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base 32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The code an authenticator app shows for `secret` (base 32, spaces allowed) at `at`, `offset` steps away. */
export function totp(secret: string, { at = Date.now(), offset = 0 } = {}): string {
  const counter = BigInt(Math.floor(at / 1000 / TOTP_STEP_SECONDS) + offset);
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(counter);
  const mac = crypto.createHmac("sha1", base32Decode(secret)).update(message).digest();
  const start = (mac[mac.length - 1] ?? 0) & 15;
  const binary = mac.readUInt32BE(start) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, "0");
}

/** The secret an otpauth:// address carries. */
export function secretOf(uri: string): string {
  return new URL(uri).searchParams.get("secret") ?? "";
}

/** The last step whose code `unusedCode` handed out, per secret, in this process. */
const handedOut = new Map<string, number>();

/**
 * A code the shop has not seen yet for `secret`: codes work once (a step used is spent, with every
 * earlier one), so each sign-in in a test needs the code of a step after the last one used. The
 * step before now is used only while more than 10 seconds of the current step are left (the
 * server accepts it until the current step ends); then now's, then the next one's. When those are
 * used up it waits for the next step to begin, as a person would.
 */
export async function unusedCode(secret: string): Promise<string> {
  const step = TOTP_STEP_SECONDS * 1000;
  const now = Date.now();
  const current = Math.floor(now / step);
  const earliest = (current + 1) * step - now > 10_000 ? current - 1 : current;
  const next = Math.max(earliest, (handedOut.get(secret) ?? Number.NEGATIVE_INFINITY) + 1);
  if (next > current + 1) {
    const wait = (next - 1) * step - Date.now() + 50;
    if (process.env.TOTP_WAITS) console.warn(`unusedCode: ${Math.round(wait / 1000)} s to the next step`);
    await new Promise((resolve) => setTimeout(resolve, wait));
    return unusedCode(secret);
  }
  handedOut.set(secret, next);
  return totp(secret, { at: next * step });
}

/**
 * Forgets the codes handed out for `secret`, for a test that has also made the shop forget the
 * steps it saw spent (its `admin_code_steps` row): the next `unusedCode` starts from now's step
 * again instead of waiting for the next one.
 */
export function forgetCodes(secret: string): void {
  handedOut.delete(secret);
}
