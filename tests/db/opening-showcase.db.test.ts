import { expect, it } from "vitest";
import { renderOpeningEmail } from "~/campaigns/opening-email.server";
import { createDrop } from "~/catalogue/catalogue.server";
import { loadConfig } from "~/config/env.server";
import { toTimestamp } from "~/db/database.server";
import { createLocalStorage } from "~/media/local-storage.server";
import { dropShowcase } from "~/waitlist/showcase.server";
import { describeEachDatabase } from "../support/databases";

/*
 * A drop's opening e-mail shows the drop (issue 25): its cover and its first pieces with their
 * photos, names and prices, each linked to its page, at absolute addresses a mail client can load.
 */

const shop = loadConfig({}).shop;
const origin = "https://orodeluna.mx";

describeEachDatabase("the opening e-mail's pieces", (harness) => {
  it("shows the cover and the first six pieces with photo, name and price, linked to their pages", async () => {
    const database = await harness.fresh();
    const now = new Date();
    await database.db
      .insertInto("media")
      .values(
        ["portada", "pieza"].map((id) => ({
          id,
          drop_id: null,
          kind: "image" as const,
          key: `drops/x/${id}`,
          width: 960,
          height: 960,
          widths: "320,480,960",
          mime: "image/webp",
          alt: id === "portada" ? "Mesa del taller con las piezas de Mareas" : "",
          created_at: toTimestamp(now),
        })),
      )
      .execute();
    const pieces = Array.from({ length: 8 }, (_, i) => ({
      name: `Anillo Ola ${i + 1}`,
      categoria: "Anillo" as const,
      material: "Oro amarillo" as const,
      priceCents: 480_000 + i * 10_000,
      stock: 1,
      imageId: i === 0 ? "pieza" : null,
    }));
    const dropId = await createDrop(database.db, {
      name: "Mareas",
      startAt: now,
      endAt: new Date(now.getTime() + 86_400_000),
      imageId: "portada",
      products: pieces,
    });
    const showcase = await dropShowcase(database.db, createLocalStorage("/nonexistent"), dropId, origin);
    expect(showcase.cover).toEqual({
      url: `${origin}/media/drops/x/portada-960.webp`,
      alt: "Mesa del taller con las piezas de Mareas",
    });
    expect(showcase.pieces).toHaveLength(6);
    expect(showcase.pieces[0]).toMatchObject({
      name: "Anillo Ola 1",
      price: "$4,800.00",
      image: { url: `${origin}/media/drops/x/pieza-480.webp` },
    });
    expect(showcase.pieces[1]?.image).toBeNull();

    const email = await renderOpeningEmail(
      { id: dropId, name: "Mareas", startAt: now, endAt: new Date(now.getTime() + 86_400_000) },
      shop,
      origin,
      showcase,
    );
    expect(email.html).toContain(`<img src="${origin}/media/drops/x/portada-960.webp"`);
    expect(email.html).toContain(`<img src="${origin}/media/drops/x/pieza-480.webp"`);
    expect(email.html).toContain("Anillo Ola 6");
    expect(email.html).not.toContain("Anillo Ola 7");
    expect(email.text).toContain(`- Anillo Ola 2: $4,900.00 ${origin}/drop/${dropId}/product/`);
  });
});
