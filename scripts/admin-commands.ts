import { parseArgs } from "node:util";
import { AdminAccountError, type AdminAuth } from "~/auth/auth.server";
import { normalizeEmail } from "~/auth/login-limits.server";
import { checkPassword } from "~/auth/password-policy";

/*
 * The administrator commands of `npm run admin` (scripts/admin.ts), apart from the process they
 * run in: what they print goes through `print` and `printError`, and the new password comes from
 * ADMIN_PASSWORD or, on a terminal, from `ask` (hidden). Tests run them in their own process, and
 * the tool itself once (tests/server/admin.test.ts): it takes seconds to start.
 */

export const USAGE = `Uso:
  npm run admin -- create <correo> [--name "Nombre"]
  npm run admin -- reset-password <correo>
  npm run admin -- reset-2fa <correo>    (teléfono perdido: configura de nuevo la verificación en dos pasos)
  npm run admin -- list
La contraseña se pide en la terminal o se lee de la variable ADMIN_PASSWORD.`;

/** Where a command reads its password and writes what it says. */
export interface AdminCommandIo {
  /** ADMIN_PASSWORD, when set. */
  password: string | undefined;
  /** Whether a terminal is there to ask on. */
  terminal: boolean;
  /** Asks on the terminal without echoing the answer. */
  ask(question: string): Promise<string>;
  print(line: string): void;
  printError(line: string): void;
}

async function readNewPassword(io: AdminCommandIo): Promise<string> {
  if (io.password) {
    const problem = checkPassword(io.password);
    if (problem) throw new AdminAccountError(`ADMIN_PASSWORD: ${problem}`);
    return io.password;
  }
  if (!io.terminal) {
    throw new AdminAccountError(
      "No hay terminal para pedir la contraseña: pásala en la variable ADMIN_PASSWORD.",
    );
  }
  for (;;) {
    const first = await io.ask("Contraseña nueva: ");
    const problem = checkPassword(first);
    if (problem) {
      io.printError(problem);
      continue;
    }
    if ((await io.ask("Repite la contraseña: ")) === first) return first;
    io.printError("Las contraseñas no coinciden. Intenta de nuevo.");
  }
}

/** Runs one command (`args`: what follows `npm run admin --`): its exit code. */
export async function runAdminCommand(args: string[], auth: AdminAuth, io: AdminCommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { name: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: false,
  });
  const [command, email, ...extra] = positionals;
  if (values.help || !command) {
    io.print(USAGE);
    return command ? 0 : 1;
  }
  if (extra.length > 0 || Object.keys(values).some((key) => key !== "name")) {
    io.printError(`Argumentos de más. La contraseña nunca va en la línea de comandos.\n${USAGE}`);
    return 1;
  }
  try {
    switch (command) {
      case "list": {
        const admins = await auth.listAdmins();
        if (admins.length === 0)
          io.print("No hay administradores. Crea uno con: npm run admin -- create <correo>");
        for (const admin of admins) {
          const sessions =
            admin.activeSessions === 1 ? "1 sesión activa" : `${admin.activeSessions} sesiones activas`;
          const secondFactor = admin.secondFactor
            ? "con verificación en dos pasos"
            : "sin verificación en dos pasos";
          io.print(
            `${admin.email}\t${admin.name}\tdesde ${admin.createdAt.toISOString().slice(0, 10)}\t${sessions}\t${secondFactor}`,
          );
        }
        return 0;
      }
      case "reset-2fa": {
        if (!email) {
          io.printError(`Falta el correo del administrador.\n${USAGE}`);
          return 1;
        }
        await auth.resetSecondFactor(email);
        io.print(
          `Verificación en dos pasos borrada para ${normalizeEmail(email)}: sus sesiones y dispositivos de confianza se cerraron; al iniciar sesión la configurará de nuevo.`,
        );
        return 0;
      }
      case "create":
      case "reset-password": {
        if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          io.printError(`Falta el correo del administrador.\n${USAGE}`);
          return 1;
        }
        const password = await readNewPassword(io);
        if (command === "create") {
          const admin = await auth.createAdmin({ email, name: String(values.name ?? ""), password });
          io.print(`Administrador creado: ${admin.email}`);
        } else {
          await auth.resetPassword(email, password);
          io.print(`Contraseña cambiada para ${normalizeEmail(email)}; sus sesiones abiertas se cerraron.`);
        }
        return 0;
      }
      default:
        io.printError(`Comando desconocido: ${command}\n${USAGE}`);
        return 1;
    }
  } catch (error) {
    if (error instanceof AdminAccountError) {
      io.printError(error.message);
      return 1;
    }
    throw error;
  }
}
