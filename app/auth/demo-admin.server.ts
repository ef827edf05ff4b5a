import crypto from "node:crypto";
import type { AdminAuth } from "./auth.server";

/**
 * The demo shop gets an administrator on its first start, so the admin area can be tried at
 * once. The password is generated and printed only this time; nowhere else keeps it.
 */
export async function ensureDemoAdmin(
  auth: AdminAuth,
  shopEmail: string,
  log: (line: string) => void,
): Promise<void> {
  if ((await auth.listAdmins()).length > 0) return;
  const email = `admin@${shopEmail.split("@")[1] ?? "example.com"}`;
  const password = crypto.randomBytes(12).toString("base64url");
  try {
    await auth.createAdmin({ email, name: "Administrador de demostración", password });
  } catch (error) {
    // Another process starting at the same moment created it first.
    if ((await auth.listAdmins()).length > 0) return;
    throw error;
  }
  // One line (the log is one JSON object per line): who reads it finds both after their label.
  log(
    `Administrador de demostración creado (la contraseña se muestra solo esta vez): correo: ${email} contraseña: ${password} — cámbiala con: npm run admin -- reset-password ${email}`,
  );
}
