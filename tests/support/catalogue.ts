import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import type { ShippingAddress } from "~/orders/shipping";

const HOUR = 3_600_000;

/** A drop running now with one piece, and a way to read that piece's stock. */
export async function runningPiece(
  database: Database,
  options: {
    stock: number;
    priceCents?: number;
    name?: string;
    /** The drop's own rules: 'Máximo N por persona', and its hold in minutes. */
    maxPerOrder?: number | null;
    holdMinutes?: number;
  },
): Promise<{ dropId: string; id: string; stock(): Promise<number | undefined> }> {
  const now = Date.now();
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(now - HOUR),
    endAt: new Date(now + HOUR),
    maxPerOrder: options.maxPerOrder ?? null,
    holdMinutes: options.holdMinutes,
    products: [
      {
        name: options.name ?? "Anillo Marea",
        categoria: "Anillo",
        material: "Oro rosa",
        priceCents: options.priceCents ?? 450_000,
        stock: options.stock,
        imageId: null,
      },
    ],
  });
  const id = (await getDrop(database.db, dropId))?.products[0]?.id ?? "";
  return { dropId, id, stock: async () => (await getDrop(database.db, dropId))?.products[0]?.stock };
}

/** Where test orders are shipped: a real-looking Mexican address for the given person. */
export function oaxacaAddress(name: string, phone: string): ShippingAddress {
  return {
    name,
    phone,
    line1: "Calle Macedonio Alcalá 401",
    line2: "Centro",
    city: "Oaxaca de Juárez",
    state: "Oaxaca",
    postalCode: "68000",
    country: "MX",
  };
}

/** The demo payment page's form, filled in as a shopper in Oaxaca would (`intent: "pay"`). */
export function demoPayment(
  name: string,
  email = `${name.toLowerCase().replace(/\W+/g, ".")}@example.mx`,
): Record<string, string> {
  const { phone, line1, line2 = "", postalCode, city, state } = oaxacaAddress(name, "951 123 4567");
  return { intent: "pay", name, email, phone, line1, line2, postalCode, city, state };
}
