import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { loadConfig } from "~/config/env.server";
import type { Database } from "~/db/database.server";
import { formValues, settingsFromEnvironment } from "~/settings/settings";
import { signInAdmin, testAdminAuth } from "../support/admin-http";
import { describeEachDatabase } from "../support/databases";
import { type RunningServer, startServer } from "../support/server-process";
import { settingsFormBody } from "../support/settings-form";

/*
 * The set-up checklist over HTTP (issue 25): the public legal pages say nothing of the model text
 * to shoppers (no 'Texto modelo', no '[Dueño de la tienda: …]' notes), while the admin's pages list
 * what is still to do; a saved legal text takes its item off.
 */
vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-checklist-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const LEGAL = ["/aviso-de-privacidad", "/envios", "/cambios-y-devoluciones", "/terminos-y-condiciones"];

/** The whole Configuración form as the page sends it, with `changes`. */
function settingsForm(changes: Record<string, string> = {}): URLSearchParams {
  return settingsFormBody(formValues(settingsFromEnvironment(loadConfig({ ENV_FILE: "" }).shop)), changes);
}

describeEachDatabase("the set-up checklist and the public legal pages", (harness) => {
  let database: Database;
  let server: RunningServer;
  let cookie: string;

  beforeAll(async () => {
    database = await harness.fresh();
    server = await startServer({
      DATA_DIR: path.join(tmp, harness.dialect),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const admin = async (pathname: string) => {
    const res = await fetch(`${server.url}${pathname}`, { headers: { cookie } });
    expect(res.status, pathname).toBe(200);
    return res.text();
  };

  it("the model legal pages say nothing of the model to shoppers, documents and client navigations alike", async () => {
    for (const pathname of LEGAL) {
      for (const address of [pathname, `${pathname}.data`]) {
        const res = await fetch(`${server.url}${address}`);
        expect(res.status, address).toBe(200);
        const body = await res.text();
        expect(body, address).not.toContain("Texto modelo");
        expect(body, address).not.toContain("[Dueño");
        expect(body, address).not.toMatch(/texto modelo/i);
        // Not even as a flag in the page's data.
        expect(body, address).not.toContain('"model"');
      }
    }
    // The rest of the model text is there.
    const privacy = await (await fetch(`${server.url}/aviso-de-privacidad`)).text();
    expect(privacy).toContain("Derechos ARCO");
    expect(privacy).toContain("es responsable del tratamiento de los datos personales");
    const shipping = await (await fetch(`${server.url}/envios`)).text();
    expect(shipping).toContain(
      "El costo del envío depende de la opción que elijas, y lo ves en tu carrito antes de pagar.</p>",
    );
  });

  it("the admin's landing lists what is left; an administrator without a second factor is named", async () => {
    const orders = await admin("/admin/orders");
    expect(orders).toContain("Antes de vender:");
    for (const title of [
      "«Aviso de privacidad» sigue con el texto modelo",
      "«Envíos» sigue con el texto modelo",
      "«Cambios y devoluciones» sigue con el texto modelo",
      "«Términos y condiciones» sigue con el texto modelo",
      "Los correos se guardan en la bandeja de salida: no se envían",
      "Los pagos son de demostración: no se cobra nada",
      "Los datos de la tienda siguen siendo los de demostración",
    ]) {
      expect(orders).toContain(title);
    }
    expect(orders).toContain('href="/admin/settings#aviso-de-privacidad"');
    // The administrator signed in has set up the app: nobody is listed yet.
    expect(orders).not.toContain("segundo factor</p>");

    await testAdminAuth(server, database).createAdmin({
      email: "nuevo@example.com",
      name: "Nuevo",
      password: "una contraseña de prueba larga",
    });
    const again = await admin("/admin/reports");
    expect(again).toContain("Un administrador no tiene segundo factor");
    expect(again).toContain("nuevo@example.com");
    // Folded on the other pages, open on the landing.
    expect(again).not.toMatch(/<details[^>]* open/);
    expect(await admin("/admin/orders")).toMatch(/<details[^>]* open/);
  });

  it("a saved privacy notice takes its item off; a note to the owner left in her text is still not shown", async () => {
    const saved = await fetch(`${server.url}/admin/settings`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: server.url },
      body: settingsForm({
        legalPrivacy:
          "## Responsable\n\nJoyería Alba, con domicilio en Calle Luna 1, Guadalajara.\n\n## Envíos\n\nEl costo se muestra al pagar. [Dueño de la tienda: pon aquí tus tarifas.]",
      }),
    });
    expect(saved.status).toBe(302);
    const privacy = await (await fetch(`${server.url}/aviso-de-privacidad`)).text();
    expect(privacy).toContain("Joyería Alba, con domicilio en Calle Luna 1, Guadalajara.");
    expect(privacy).toContain("El costo se muestra al pagar.</p>");
    expect(privacy).not.toContain("[Dueño");
    const orders = await admin("/admin/orders");
    expect(orders).not.toContain("«Aviso de privacidad» sigue con el texto modelo");
    // The note she left keeps it on her list, in other words.
    expect(orders).toContain("«Aviso de privacidad» todavía tiene una indicación para ti entre corchetes");
    expect(orders).toContain("«Envíos» sigue con el texto modelo");
  });
});
