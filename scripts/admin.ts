// npm run admin -- create <correo> [--name "Nombre"]
// npm run admin -- reset-password <correo>
// npm run admin -- reset-2fa <correo>
// npm run admin -- list
//
// The password is asked on the terminal (hidden, twice) or read from ADMIN_PASSWORD; never from an
// argument, which would stay in the shell history and be visible to other users in `ps`.
import readline from "node:readline";
import { createAdminAuth } from "~/auth/auth.server";
import { authSettings } from "~/auth/auth-config.server";
import { runAdminCommand } from "./admin-commands";
import { runCli } from "./cli";

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

await runCli(({ config, database }) =>
  runAdminCommand(process.argv.slice(2), createAdminAuth(database, authSettings(config)), {
    password: process.env.ADMIN_PASSWORD,
    terminal: Boolean(process.stdin.isTTY),
    ask: askHidden,
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
  }),
);
