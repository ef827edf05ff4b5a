import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboxMailer } from "./mailer.server";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

async function sentWith(from: string, contact: string | undefined): Promise<string> {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mailer-")), "outbox");
  dirs.push(dir);
  const mailer = createOutboxMailer(
    dir,
    from,
    () => {},
    () => contact,
  );
  await mailer.send({ to: "luz@example.mx", subject: "Tu pedido", text: "Hola", html: "<p>Hola</p>" });
  const [file] = fs.readdirSync(dir);
  return fs.readFileSync(path.join(dir, file ?? ""), "utf8");
}

describe("a buyer's reply", () => {
  it("goes to the shop's contact e-mail from Configuración, read at each send, when the sender is another address", async () => {
    const message = await sentWith('"Oro de Luna" <no-responder@correo.orodeluna.mx>', "hola@orodeluna.mx");
    expect(message).toMatch(/^From: "?Oro de Luna"? <no-responder@correo\.orodeluna\.mx>$/m);
    expect(message).toMatch(/^Reply-To: hola@orodeluna\.mx$/m);
  });

  it("needs no Reply-To when the sender is that very address", async () => {
    const message = await sentWith('"Oro de Luna" <hola@orodeluna.mx>', "HOLA@orodeluna.mx");
    expect(message).not.toMatch(/^Reply-To:/im);
  });
});
