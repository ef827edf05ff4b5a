import path from "node:path";
import sharp from "sharp";
import type { Database } from "~/db/database.server";
import { RESTOCK_EMAIL } from "~/mail/kinds";
import { createLocalStorage } from "~/media/local-storage.server";
import { storeImage } from "~/media/media.server";
import { E2E_DATA_DIR } from "./support/env";
import { expect, expectAccessible, type TestDrop, test, untilHydrated } from "./support/fixtures";
import { outboxMessagesWith } from "./support/outbox";

/*
 * No dead ends (issue 27, decision 46): a sold-out piece offers 'Avísame si vuelve' in place of the
 * grey 'Producto agotado' box; the opt-in e-mail's link confirms it; the owner adds one unit in the
 * drops desk and exactly one e-mail says the piece is back. Every product page shows more pieces of
 * its drop, and the drop on sale now when it is another one.
 */

/** Gives every piece of the drop a photo, as the drops desk asks of each one it saves. */
async function withPhotos(database: Database, drop: TestDrop): Promise<void> {
  const storage = createLocalStorage(path.resolve(E2E_DATA_DIR, "media"));
  for (const [i, piece] of drop.products.entries()) {
    const body = await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: ["#b08d57", "#7d5a1e", "#d9c3a0"][i % 3] ?? "#b08d57",
      },
    })
      .png()
      .toBuffer();
    const image = await storeImage(storage, { dropId: drop.id, body });
    await database.db.insertInto("media").values(image).execute();
    await database.db
      .updateTable("products")
      .set({ image_id: image.id })
      .where("id", "=", piece.id)
      .execute();
  }
}

/** The one link of an e-mail in the outbox that goes to `pathname`, as a path on the shop. */
function linkIn(eml: string, pathname: string): string {
  const match = new RegExp(`https?://[^\\s"<>]+(${pathname.replace(/\//g, "\\/")}\\?t=[A-Za-z0-9._-]+)`).exec(
    eml,
  );
  if (!match?.[1]) throw new Error(`no link to ${pathname} in the e-mail`);
  return match[1];
}

test("a sold-out piece's 'Avísame si vuelve' is confirmed from the e-mail; the owner adds one unit and one e-mail says it is back", async ({
  page,
  shop,
  database,
  admins,
}) => {
  const project = test.info().project.name;
  const drop = await shop.drop({
    timing: "running",
    products: [
      { name: `Anillo Regreso ${project}`, priceCents: 420_000, stock: 0 },
      { name: `Arete Brisa ${project}`, priceCents: 180_000, stock: 3 },
      { name: `Collar Faro ${project}`, priceCents: 510_000, stock: 2 },
    ],
  });
  await withPhotos(database, drop);
  const [soldOut] = drop.products;
  if (!soldOut) throw new Error("no piece");
  const email = `regreso.${project}.${Date.now()}@example.mx`;

  await page.goto(soldOut.href);
  await expect(page.getByTestId("stock")).toHaveText("Producto agotado");
  const form = page.getByRole("region", { name: "Avísame si vuelve" });
  await expect(form).toBeVisible();
  // Filled and pressed before React had taken the form over, no answer came (seen once on a phone).
  await untilHydrated(form.locator("form"));
  await form.getByLabel("Correo electrónico").fill(email);
  await form.getByRole("checkbox").check();
  await form.getByRole("button", { name: "Avísame" }).click();
  // The form solves a proof of work first (a second or two on a phone, more on a busy machine).
  await expect(form.getByRole("status")).toHaveText(/^¡Listo! Revisa tu correo: te enviamos un enlace/, {
    timeout: 20_000,
  });
  // More of the drop, each with its photo, name and price.
  const more = page.getByRole("region", { name: `Más piezas de ${drop.name}` });
  await expect(more.getByRole("article")).toHaveCount(2);
  await expect(more.getByRole("article", { name: `Arete Brisa ${project}` })).toContainText("$1,800.00");
  await expect(more.getByRole("article", { name: `Collar Faro ${project}` }).getByRole("img")).toBeVisible();
  await expectAccessible(page);

  // The opt-in e-mail's link asks, and her click confirms the address.
  await expect.poll(() => outboxMessagesWith(email).length, { timeout: 10_000 }).toBe(1);
  const confirmation = outboxMessagesWith(email)[0] ?? "";
  expect(confirmation).toContain(`Confirma tu aviso para Anillo Regreso ${project}`);
  await page.goto(linkIn(confirmation, "/avisame/confirmar"));
  await expect(
    page.getByText(`Confirma que quieres recibir el aviso de Anillo Regreso ${project}`),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Confirmar mi correo" }).click();
  await expect(page.getByRole("heading", { name: "¡Correo confirmado!" })).toBeVisible();
  await expectAccessible(page);

  // The owner adds one unit of the sold-out piece in the drops desk.
  await admins.login(page);
  await page.goto(`/admin/drops/edit-drop/${drop.id}`);
  const piece = page.getByRole("group", { name: /^Producto 1/ });
  await expect(piece.getByLabel("Stock (piezas)")).toHaveValue("0");
  // Beside it, the one confirmed address waiting for it.
  await expect(piece.getByText("1 persona espera que vuelva ('Avísame si vuelve')")).toBeVisible();
  await piece.getByLabel("Stock (piezas)").fill("1");
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Drop actualizado correctamente" })).toBeVisible();

  // Exactly one e-mail says the piece is back, linking its page.
  // (The outbox's decoding reads bytes, not UTF-8: the notice is told apart by the piece's address.)
  const back = () => outboxMessagesWith(email).filter((eml) => eml.includes(soldOut.href));
  await expect.poll(() => back().length, { timeout: 10_000 }).toBe(1);
  expect(back()[0]).toContain(`Anillo Regreso ${project}`);
  // And no other is on its way: one notice queued for the address, none left to send.
  const notices = await database.db
    .selectFrom("emails")
    .select("sent_at")
    .where("kind", "=", RESTOCK_EMAIL)
    .where("recipient", "=", email)
    .execute();
  expect(notices).toHaveLength(1);
  expect(notices[0]?.sent_at).not.toBeNull();

  // Back in stock: the page sells it again and no longer offers the form.
  await page.goto(soldOut.href);
  await expect(page.getByRole("button", { name: "Agregar al carrito" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Avísame si vuelve" })).toHaveCount(0);
});

test("an ended drop's product page shows more pieces of its drop and the drop on sale now", async ({
  page,
  shop,
}) => {
  const project = test.info().project.name;
  const running = await shop.drop({
    timing: "running",
    products: [{ name: `Pulsera Hoy ${project}`, priceCents: 250_000, stock: 2 }],
  });
  const ended = await shop.drop({
    timing: "ended",
    products: [
      { name: `Anillo Ayer ${project}`, priceCents: 300_000, stock: 1 },
      { name: `Arete Ayer ${project}`, priceCents: 150_000, stock: 0 },
    ],
  });
  const [first] = ended.products;
  await page.goto(first?.href ?? "");
  await expect(page.getByText("Colección finalizada").first()).toBeVisible();
  // An ended drop takes no requests: no form, the grey box stays.
  await expect(page.getByRole("region", { name: "Avísame si vuelve" })).toHaveCount(0);
  const more = page.getByRole("region", { name: `Más piezas de ${ended.name}` });
  await expect(more.getByRole("article", { name: `Arete Ayer ${project}` })).toContainText(
    "Colección finalizada",
  );
  const onSale = page.getByTestId("running-drop");
  await expect(onSale).toContainText("Ahora a la venta");
  // The one that ends first among those running: another test's, perhaps, but never this drop.
  await expect(onSale.getByRole("link")).toHaveAttribute("href", /^\/coleccion\/[a-z0-9]+$/);
  await expect(onSale.getByRole("link")).not.toHaveAttribute("href", ended.href);
  await expectAccessible(page);

  // A running drop's own page does not point to itself.
  await page.goto(running.products[0]?.href ?? "");
  await expect(page.getByRole("heading", { name: `Pulsera Hoy ${project}`, level: 1 })).toBeVisible();
  if ((await page.getByTestId("running-drop").count()) > 0) {
    await expect(page.getByTestId("running-drop").getByRole("link")).not.toHaveAttribute(
      "href",
      running.href,
    );
  }
});
