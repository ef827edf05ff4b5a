import fs from "node:fs";
import path from "node:path";
import { newId } from "~/lib/ids";
import { queueEmail } from "~/mail/queue.server";
import { E2E_DATA_DIR } from "./support/env";
import { expect, expectAccessible, test } from "./support/fixtures";

const DEMO_UPCOMING = "Jardín de Invierno";

/** The shop's outbox messages to `to`, their quoted-printable parts decoded (UTF-8 bytes too). */
function outboxMessagesTo(to: string): string[] {
  const dir = path.join(E2E_DATA_DIR, "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => {
      const bytes = fs
        .readFileSync(path.join(dir, f), "latin1")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return Buffer.from(bytes, "latin1").toString("utf8");
    })
    .filter((eml) => new RegExp(`^To: ${to.replace(/[.]/g, "\\.")}$`, "m").test(eml));
}

test("Campañas lists the demo drop's 'Avísame' list, previews its opening e-mail and sends a test to the outbox", async ({
  page,
  admins,
}) => {
  const admin = await admins.login(page);
  await page.goto("/admin/campains");
  await expect(page.getByRole("heading", { name: "Campañas", level: 1 })).toBeVisible();
  await page
    .getByRole("navigation", { name: "Colecciones próximas" })
    .getByRole("link", { name: new RegExp(DEMO_UPCOMING) })
    .click();

  const list = page.getByRole("region", { name: `Avísame: ${DEMO_UPCOMING}` });
  const count = (label: string) =>
    list.locator("dl > div").filter({ hasText: label }).getByRole("definition");
  await expect(count("Registros")).toHaveText("6");
  await expect(count("Confirmadas")).toHaveText("3");
  await expect(count("Sin confirmar")).toHaveText("2");
  await expect(count("Dadas de baja")).toHaveText("1");
  const rows = list.getByRole("table", { name: `Lista de Avísame de ${DEMO_UPCOMING}` }).getByRole("row");
  await expect(rows).toHaveCount(7);
  await expect(rows.filter({ hasText: "lucia.mendoza@example.com" })).toContainText("Dada de baja");
  await expect(rows.filter({ hasText: "renata.flores@example.com" })).toContainText("Sin confirmar");

  const opening = page.getByRole("region", { name: "Correo de apertura" });
  await expect(opening).toContainText("hora de la Ciudad de México");
  await expect(opening).toContainText(`¡Ya abrió ${DEMO_UPCOMING}!`);
  // The e-mail itself, in a frame that runs nothing: read from the frame's document, not entered
  // (entering it would mean running a script there, which the sandbox refuses).
  const preview = page.getByTitle("Vista previa del correo de apertura");
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute("sandbox", "");
  await expect(preview).toHaveAttribute("srcdoc", new RegExp(`<h1[^>]*>¡Ya abrió ${DEMO_UPCOMING}!</h1>`));
  await expect(preview).toHaveAttribute(
    "srcdoc",
    /href="http:\/\/[^"]+\/coleccion\/[a-z0-9]{16}"[^>]*>Ver la colección</,
  );

  await opening.getByRole("button", { name: "Enviar prueba" }).click();
  await expect(opening.getByRole("status")).toHaveText(`Prueba en camino a ${admin.email}.`);
  await expect.poll(() => outboxMessagesTo(admin.email).length, { timeout: 10_000 }).toBe(1);
  const [eml] = outboxMessagesTo(admin.email);
  expect(eml).toContain(`Ya abrió ${DEMO_UPCOMING}`);
  expect(eml).toContain("List-Unsubscribe");

  // The page around the preview: axe runs a script in every frame, so the frame goes first.
  await preview.evaluate((frame) => frame.remove());
  await expectAccessible(page);
});

test("'Reenviar' on a failed e-mail in the mail log sends it again", async ({ page, admins, database }) => {
  const drop = await database.db
    .selectFrom("drops")
    .select("id")
    .where("name", "=", DEMO_UPCOMING)
    .executeTakeFirstOrThrow();
  const recipient = `falla-${newId(6)}@example.com`;
  const id = await queueEmail(database.db, {
    kind: "campana_prueba",
    recipient,
    payload: { dropId: drop.id, siteUrl: "http://127.0.0.1" },
  });
  // Its last attempt failed and it gave up: only 'Reenviar' sends it now.
  await database.db
    .updateTable("emails")
    .set({ attempts: 30, last_error: "SMTP 550: buzón lleno", next_attempt_at: null })
    .where("id", "=", id ?? "")
    .execute();

  await admins.login(page);
  // Straight to the log: the Avísame view's preview frame plays no part here.
  await page.goto("/admin/campains/correos");
  await expect(
    page
      .getByRole("navigation", { name: "Secciones de Campañas" })
      .getByRole("link", { name: "Registro de correos" }),
  ).toHaveAttribute("aria-current", "page");
  await page
    .getByRole("navigation", { name: "Estado de los correos" })
    .getByRole("link", { name: /^Fallidos/ })
    .click();
  const mail = page.getByRole("article").filter({ hasText: recipient });
  await expect(mail).toContainText("SMTP 550: buzón lleno");
  await expect(mail).toContainText("Falló");
  await expectAccessible(page);

  await mail.getByRole("button", { name: `Reenviar el correo a ${recipient}` }).click();
  await expect(page.getByRole("status")).toHaveText("Correo en camino de nuevo.");
  await expect.poll(() => outboxMessagesTo(recipient).length, { timeout: 10_000 }).toBe(1);
  // It left the failed ones; among the sent ones it says so.
  await expect(mail).toHaveCount(0);
  await page
    .getByRole("navigation", { name: "Estado de los correos" })
    .getByRole("link", { name: /^Enviados/ })
    .click();
  await expect(page.getByRole("article").filter({ hasText: recipient })).toContainText("Enviado");
});
