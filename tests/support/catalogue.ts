import { createDrop, getDrop } from "~/catalogue/catalogue.server";
import type { Database } from "~/db/database.server";
import type { ShippingAddress } from "~/orders/shipping";

const HOUR = 3_600_000;

/** A drop running now (or opening in `opensInMs`) with one piece, and a way to read that piece's stock. */
export async function runningPiece(
  database: Database,
  options: {
    stock: number;
    priceCents?: number;
    name?: string;
    /** The drop's own rules: 'Máximo N por persona', and its hold in minutes. */
    maxPerOrder?: number | null;
    holdMinutes?: number;
    opensInMs?: number;
    /** Sold by size: each size's stock (their sum is the piece's stock; `stock` is then ignored). */
    sizes?: Record<string, number>;
  },
): Promise<{
  dropId: string;
  id: string;
  /** Its sizes' ids by value, when sold by size. */
  sizes: Map<string, string>;
  stock(): Promise<number | undefined>;
}> {
  const now = Date.now();
  const dropId = await createDrop(database.db, {
    name: "Mareas",
    status: "activa",
    startAt: new Date(options.opensInMs === undefined ? now - HOUR : now + options.opensInMs),
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
        option: options.sizes && {
          name: "Talla",
          values: Object.entries(options.sizes).map(([value, stock]) => ({ value, stock })),
        },
      },
    ],
  });
  const product = (await getDrop(database.db, dropId))?.products[0];
  return {
    dropId,
    id: product?.id ?? "",
    sizes: new Map(product?.option?.values.map((v) => [v.value, v.id]) ?? []),
    stock: async () => (await getDrop(database.db, dropId))?.products[0]?.stock,
  };
}

/** An upcoming drop ('Próximamente') with one piece, opening in `startsIn` ms: what 'Avísame' is for. */
export async function upcomingDrop(database: Database, name = "Luna de Octubre", startsIn = 2 * HOUR) {
  const now = Date.now();
  const id = await createDrop(database.db, {
    name,
    status: "proximamente",
    startAt: new Date(now + startsIn),
    endAt: new Date(now + startsIn + 48 * HOUR),
    products: [
      {
        name: "Anillo Creciente",
        categoria: "Anillo",
        material: "Oro amarillo",
        priceCents: 450_000,
        stock: 3,
        imageId: null,
      },
    ],
  });
  return { id, opensAt: new Date(now + startsIn) };
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
