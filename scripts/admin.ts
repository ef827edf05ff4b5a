// npm run admin -- create <correo> [--name "Nombre"]
// npm run admin -- reset-password <correo>
// npm run admin -- reset-2fa <correo>
// npm run admin -- list
//
// The password is asked on the terminal (hidden, twice) or read from ADMIN_PASSWORD; never from an
// argument, which would stay in the shell history and be visible to other users in `ps`.
import readline from "node:readline";
import { parseArgs } from "node:util";
import { AdminAccountError, createAdminAuth } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { normalizeEmail } from "~/auth/login-limits.server";
import { checkPassword } from "~/auth/password-policy";
import { runCli } from "./cli";

const USAGE = `Uso:
  npm run admin -- create <correo> [--name "Nombre"]
  npm run admin -- reset-password <correo>
  npm run admin -- reset-2fa <correo>    (teléfono perdido: configura de nuevo la verificación en dos pasos)
  npm run admin -- list
La contraseña se pide en la terminal o se lee de la variable ADMIN_PASSWORD.`;

/** Reads a line without echoing it. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const internals = rl as unknown as { _writeToOutput(text: string): void };
    let asked = false;
    internals._writeToOutput = (text: string) => {
      if (!asked) process.stdout.write(text);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    asked = true;
  });
}

async function readNewPassword(): Promise<string> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  if (fromEnv) {
    const problem = checkPassword(fromEnv);
    if (problem) throw new AdminAccountError(`ADMIN_PASSWORD: ${problem}`);
    return fromEnv;
  }
  if (!process.stdin.isTTY) {
    throw new AdminAccountError(
      "No hay terminal para pedir la contraseña: pásala en la variable ADMIN_PASSWORD.",
    );
  }
  for (;;) {
    const first = await askHidden("Contraseña nueva: ");
    const problem = checkPassword(first);
    if (problem) {
      console.error(problem);
      continue;
    }
    if ((await askHidden("Repite la contraseña: ")) === first) return first;
    console.error("Las contraseñas no coinciden. Intenta de nuevo.");
  }
}

await runCli(async ({ config, database }) => {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { name: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
    strict: false,
  });
  const [command, email, ...extra] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  if (extra.length > 0 || Object.keys(values).some((key) => key !== "name")) {
    console.error(`Argumentos de más. La contraseña nunca va en la línea de comandos.\n${USAGE}`);
    return 1;
  }
  const auth = createAdminAuth(database, authSettings(config));
  try {
    switch (command) {
      case "list": {
        const admins = await auth.listAdmins();
        if (admins.length === 0)
          console.log("No hay administradores. Crea uno con: npm run admin -- create <correo>");
        for (const admin of admins) {
          const sessions =
            admin.activeSessions === 1 ? "1 sesión activa" : `${admin.activeSessions} sesiones activas`;
          const secondFactor = admin.secondFactor
            ? "con verificación en dos pasos"
            : "sin verificación en dos pasos";
          console.log(
            `${admin.email}\t${admin.name}\tdesde ${admin.createdAt.toISOString().slice(0, 10)}\t${sessions}\t${secondFactor}`,
          );
        }
        return 0;
      }
      case "reset-2fa": {
        if (!email) {
          console.error(`Falta el correo del administrador.\n${USAGE}`);
          return 1;
        }
        await auth.resetSecondFactor(email);
        console.log(
          `Verificación en dos pasos borrada para ${normalizeEmail(email)}: sus sesiones y dispositivos de confianza se cerraron; al iniciar sesión la configurará de nuevo.`,
        );
        return 0;
      }
      case "create":
      case "reset-password": {
        if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
          console.error(`Falta el correo del administrador.\n${USAGE}`);
          return 1;
        }
        const password = await readNewPassword();
        if (command === "create") {
          const admin = await auth.createAdmin({ email, name: String(values.name ?? ""), password });
          console.log(`Administrador creado: ${admin.email}`);
        } else {
          await auth.resetPassword(email, password);
          console.log(
            `Contraseña cambiada para ${normalizeEmail(email)}; sus sesiones abiertas se cerraron.`,
          );
        }
        return 0;
      }
      default:
        console.error(`Comando desconocido: ${command}\n${USAGE}`);
        return 1;
    }
  } catch (error) {
    if (error instanceof AdminAccountError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
});
