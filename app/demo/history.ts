// The demo shop's past (issue 25): what the ended and archived drops sold, to whom, and how far
// each order got (archived, shipped, still to ship, one cancelled), and the 'Avísame' lists those
// drops had before they opened. The owner's half of the shop opens with something in it: the
// orders desk, Reportes (months of sales) and Campañas.
//
// Every buyer is made up. Their addresses are on example.com, example.net and example.org, which
// are reserved (RFC 2606) and reach nobody; the e-mails they "got" are recorded as sent long ago,
// so the queue never sends them. Order numbers are `OL-DEMO0001`…: a real one never has an O (its
// alphabet has none), so a demo order is told apart at a glance, and 'demo' in the desk's search
// finds them all.
//
// The catalogue's stock of these drops is what was left after these orders (a cancelled order's
// pieces went back, so they are counted in it).

import { SHOP_CANCELLATION } from "~/orders/order";
import type { DemoDrop } from "./catalogue";

export interface DemoBuyer {
  name: string;
  email: string;
  phone: string;
  /** Street and number */
  line1: string;
  /** Colonia (and interior number) */
  line2: string;
  city: string;
  state: string;
  postalCode: string;
}

export interface DemoOrderLine {
  /** The product's name in its drop (catalogue.ts). */
  product: string;
  /** The size bought, for a product sold by size. */
  size?: string;
  quantity: number;
}

export type DemoCarrier = "Estafeta" | "DHL Express" | "FedEx" | "Redpack" | "Paquetexpress" | "99minutos";

export interface DemoOrder {
  drop: Extract<DemoDrop["role"], "ended" | "archived">;
  /** Index into DEMO_BUYERS. */
  buyer: number;
  /** Hours after the drop opened that it was paid (within the drop's dates). */
  paidAfterHours: number;
  lines: DemoOrderLine[];
  status: "pendiente" | "enviado" | "archivado" | "cancelado";
  /** enviado and archivado: the parcel, handed over this many hours after the payment. */
  shipped?: { carrier: DemoCarrier; tracking: string; afterHours: number };
  /** archivado: hours after shipping that the owner archived it. */
  archivedAfterHours?: number;
  /** cancelado: hours after the payment that the shop cancelled it and refunded the payment. */
  cancelledAfterHours?: number;
}

/** Why the demo's cancelled order was cancelled (its refund's reason): by the shop (decision 37). */
export const DEMO_CANCEL_REASON = SHOP_CANCELLATION;

export const DEMO_BUYERS: DemoBuyer[] = [
  {
    name: "Mariana López Ruiz",
    email: "mariana.lopez@example.com",
    phone: "55 2841 7730",
    line1: "Calle Colima 214, Int. 3",
    line2: "Roma Norte",
    city: "Cuauhtémoc",
    state: "Ciudad de México",
    postalCode: "06700",
  },
  {
    name: "Sofía Hernández Vega",
    email: "sofia.hernandez@example.com",
    phone: "33 3615 2298",
    line1: "Av. Chapultepec Sur 480",
    line2: "Americana",
    city: "Guadalajara",
    state: "Jalisco",
    postalCode: "44160",
  },
  {
    name: "Valeria Cruz Domínguez",
    email: "valeria.cruz@example.com",
    phone: "81 8340 1175",
    line1: "Río Guadalquivir 312",
    line2: "Del Valle",
    city: "San Pedro Garza García",
    state: "Nuevo León",
    postalCode: "66220",
  },
  {
    name: "Ximena Ramírez Soto",
    email: "ximena.ramirez@example.net",
    phone: "951 516 4420",
    line1: "Calle de García Vigil 508",
    line2: "Centro",
    city: "Oaxaca de Juárez",
    state: "Oaxaca",
    postalCode: "68000",
  },
  {
    name: "Andrea Martínez Peña",
    email: "andrea.martinez@example.org",
    phone: "222 242 9087",
    line1: "Calle 5 de Mayo 1206",
    line2: "Centro",
    city: "Puebla",
    state: "Puebla",
    postalCode: "72000",
  },
  {
    name: "Camila Torres Aguilar",
    email: "camila.torres@example.com",
    phone: "999 923 4561",
    line1: "Calle 60 No. 455 x 49 y 51",
    line2: "Centro",
    city: "Mérida",
    state: "Yucatán",
    postalCode: "97000",
  },
  {
    name: "Regina Castillo Ibarra",
    email: "regina.castillo@example.net",
    phone: "442 212 8834",
    line1: "Andador Libertad 32",
    line2: "Centro Histórico",
    city: "Santiago de Querétaro",
    state: "Querétaro",
    postalCode: "76000",
  },
  {
    name: "Fernanda Morales Rivas",
    email: "fernanda.morales@example.com",
    phone: "229 931 4472",
    line1: "Av. Independencia 1120",
    line2: "Centro",
    city: "Veracruz",
    state: "Veracruz",
    postalCode: "91700",
  },
  {
    name: "Paulina Navarro Gil",
    email: "paulina.navarro@example.org",
    phone: "664 684 2290",
    line1: "Blvd. Agua Caliente 10440",
    line2: "Aviación",
    city: "Tijuana",
    state: "Baja California",
    postalCode: "22014",
  },
  {
    name: "Isabel Guerrero Lara",
    email: "isabel.guerrero@example.com",
    phone: "473 732 1189",
    line1: "Calle Positos 47",
    line2: "Zona Centro",
    city: "Guanajuato",
    state: "Guanajuato",
    postalCode: "36000",
  },
  {
    name: "Natalia Vázquez Ortega",
    email: "natalia.vazquez@example.net",
    phone: "967 678 3304",
    line1: "Calle Real de Guadalupe 34",
    line2: "Barrio de Guadalupe",
    city: "San Cristóbal de las Casas",
    state: "Chiapas",
    postalCode: "29230",
  },
  {
    name: "Daniela Ríos Cárdenas",
    email: "daniela.rios@example.com",
    phone: "662 213 7745",
    line1: "Calle Garmendia 95",
    line2: "Centro",
    city: "Hermosillo",
    state: "Sonora",
    postalCode: "83000",
  },
  {
    name: "Jimena Salazar Mejía",
    email: "jimena.salazar@example.org",
    phone: "55 5658 3021",
    line1: "Av. Francisco Sosa 383",
    line2: "Barrio de Santa Catarina",
    city: "Coyoacán",
    state: "Ciudad de México",
    postalCode: "04010",
  },
  {
    name: "Lorena Fuentes Campos",
    email: "lorena.fuentes@example.com",
    phone: "444 812 5567",
    line1: "Av. Venustiano Carranza 1525",
    line2: "Tequisquiapan",
    city: "San Luis Potosí",
    state: "San Luis Potosí",
    postalCode: "78250",
  },
  {
    name: "Emilio Rojas Medina",
    email: "emilio.rojas@example.net",
    phone: "998 884 2013",
    line1: "Av. Tulum 220, Depto. 5",
    line2: "Supermanzana 4",
    city: "Cancún",
    state: "Quintana Roo",
    postalCode: "77500",
  },
  {
    name: "Alejandro Peña Villarreal",
    email: "alejandro.pena@example.com",
    phone: "81 8123 6640",
    line1: "Calle Padre Mier 820 Pte.",
    line2: "Centro",
    city: "Monterrey",
    state: "Nuevo León",
    postalCode: "64000",
  },
  {
    name: "Carolina Estrada Luna",
    email: "carolina.estrada@example.org",
    phone: "312 314 9921",
    line1: "Calle Madero 155",
    line2: "Centro",
    city: "Colima",
    state: "Colima",
    postalCode: "28000",
  },
  {
    name: "Gabriela Mendoza Trejo",
    email: "gabriela.mendoza@example.com",
    phone: "777 318 4409",
    line1: "Calle Morrow 12",
    line2: "Centro",
    city: "Cuernavaca",
    state: "Morelos",
    postalCode: "62000",
  },
  {
    name: "Renata Flores Cano",
    email: "renata.flores@example.com",
    phone: "55 4412 8870",
    line1: "Av. Ámsterdam 73, Depto. 201",
    line2: "Hipódromo Condesa",
    city: "Cuauhtémoc",
    state: "Ciudad de México",
    postalCode: "06100",
  },
];

const DAY = 24;

/**
 * The orders, oldest first (their numbers follow this order). Luz de Otoño (ended) sold over its
 * week: a rush at the opening, then a trickle; the last ones are still to ship. Raíces (archived)
 * sold over five weeks, months ago, and every order is shipped and archived.
 */
export const DEMO_ORDERS: DemoOrder[] = [
  // Raíces, about four months ago.
  {
    drop: "archived",
    buyer: 0,
    paidAfterHours: 0.1,
    lines: [{ product: "Arracadas Sol de Oaxaca", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464720099630", afterHours: 26 },
    archivedAfterHours: 12 * DAY,
  },
  {
    drop: "archived",
    buyer: 13,
    paidAfterHours: 0.3,
    lines: [
      { product: "Collar Ofrenda", quantity: 1 },
      { product: "Broqueles Flor de Mayo", quantity: 1 },
    ],
    status: "archivado",
    shipped: { carrier: "DHL Express", tracking: "4417093385", afterHours: 27 },
    archivedAfterHours: 12 * DAY,
  },
  {
    drop: "archived",
    buyer: 16,
    paidAfterHours: 2,
    lines: [{ product: "Argolla Raíz", size: "5", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464720107815", afterHours: 30 },
    archivedAfterHours: 11 * DAY,
  },
  {
    drop: "archived",
    buyer: 17,
    paidAfterHours: 12,
    lines: [
      { product: "Medalla Monte Albán", quantity: 1 },
      { product: "Pulsera Camino Real", quantity: 2 },
    ],
    status: "archivado",
    shipped: { carrier: "Paquetexpress", tracking: "QRO01MX0087342", afterHours: 40 },
    archivedAfterHours: 10 * DAY,
  },
  {
    drop: "archived",
    buyer: 1,
    paidAfterHours: 2.5 * DAY,
    lines: [{ product: "Collar Ofrenda", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "FedEx", tracking: "781203446519", afterHours: 22 },
    archivedAfterHours: 9 * DAY,
  },
  {
    drop: "archived",
    buyer: 5,
    paidAfterHours: 8 * DAY,
    lines: [
      { product: "Anillo Milpa", size: "8", quantity: 1 },
      { product: "Broqueles Flor de Mayo", quantity: 2 },
    ],
    status: "archivado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464720113902", afterHours: 45 },
    archivedAfterHours: 14 * DAY,
  },
  {
    drop: "archived",
    buyer: 12,
    paidAfterHours: 14.5 * DAY,
    lines: [{ product: "Esclava Tierra Mojada", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "DHL Express", tracking: "4417128830", afterHours: 20 },
    archivedAfterHours: 10 * DAY,
  },
  {
    drop: "archived",
    buyer: 3,
    paidAfterHours: 20 * DAY,
    lines: [
      { product: "Medalla Monte Albán", quantity: 2 },
      { product: "Pulsera Camino Real", quantity: 1 },
    ],
    status: "archivado",
    shipped: { carrier: "Redpack", tracking: "180344517", afterHours: 50 },
    archivedAfterHours: 13 * DAY,
  },
  {
    drop: "archived",
    buyer: 15,
    paidAfterHours: 25 * DAY,
    lines: [
      { product: "Arracadas Sol de Oaxaca", quantity: 1 },
      { product: "Argolla Raíz", size: "11", quantity: 1 },
    ],
    status: "archivado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464720126441", afterHours: 28 },
    archivedAfterHours: 12 * DAY,
  },
  {
    drop: "archived",
    buyer: 9,
    paidAfterHours: 29 * DAY,
    lines: [
      { product: "Collar Ofrenda", quantity: 1 },
      { product: "Anillo Milpa", size: "6", quantity: 1 },
      { product: "Pulsera Camino Real", quantity: 1 },
    ],
    status: "archivado",
    shipped: { carrier: "99minutos", tracking: "99M2231874560", afterHours: 30 },
    archivedAfterHours: 11 * DAY,
  },
  {
    drop: "archived",
    buyer: 11,
    paidAfterHours: 34 * DAY,
    lines: [{ product: "Broqueles Flor de Mayo", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "FedEx", tracking: "781209915032", afterHours: 26 },
    archivedAfterHours: 10 * DAY,
  },
  // Luz de Otoño, about three weeks ago.
  {
    drop: "ended",
    buyer: 0,
    paidAfterHours: 0.05,
    lines: [
      { product: "Collar Cempasúchil", quantity: 1 },
      { product: "Aretes Medalla de Otoño", quantity: 1 },
    ],
    status: "archivado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464730011874", afterHours: 24 },
    archivedAfterHours: 9 * DAY,
  },
  {
    drop: "ended",
    buyer: 1,
    paidAfterHours: 0.1,
    lines: [{ product: "Solitario Candela", size: "6", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "DHL Express", tracking: "4418260157", afterHours: 25 },
    archivedAfterHours: 9 * DAY,
  },
  {
    drop: "ended",
    buyer: 2,
    paidAfterHours: 0.2,
    lines: [{ product: "Brazalete Cosecha", quantity: 1 }],
    status: "archivado",
    shipped: { carrier: "FedEx", tracking: "781240087715", afterHours: 26 },
    archivedAfterHours: 8 * DAY,
  },
  {
    drop: "ended",
    buyer: 3,
    paidAfterHours: 0.4,
    lines: [{ product: "Collar Cempasúchil", quantity: 1 }],
    status: "enviado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464730020515", afterHours: 27 },
  },
  {
    drop: "ended",
    buyer: 4,
    paidAfterHours: 1.5,
    lines: [{ product: "Aretes Medalla de Otoño", quantity: 2 }],
    status: "enviado",
    shipped: { carrier: "Redpack", tracking: "180512276", afterHours: 30 },
  },
  {
    drop: "ended",
    buyer: 5,
    paidAfterHours: 3,
    lines: [
      { product: "Huggies Hojarasca", quantity: 1 },
      { product: "Anillos Tarde Larga", size: "7", quantity: 1 },
    ],
    status: "enviado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464730034087", afterHours: 44 },
  },
  {
    drop: "ended",
    buyer: 14,
    paidAfterHours: 9,
    lines: [{ product: "Solitario Candela", size: "8", quantity: 1 }],
    status: "enviado",
    shipped: { carrier: "DHL Express", tracking: "4418277304", afterHours: 40 },
  },
  {
    drop: "ended",
    buyer: 6,
    paidAfterHours: 20,
    lines: [
      { product: "Collar Cempasúchil", quantity: 1 },
      { product: "Esclavas Octubre", quantity: 1 },
    ],
    status: "enviado",
    shipped: { carrier: "Paquetexpress", tracking: "QRO01MX0091876", afterHours: 30 },
  },
  {
    drop: "ended",
    buyer: 7,
    paidAfterHours: 30,
    lines: [{ product: "Collar Veleta", quantity: 1 }],
    status: "cancelado",
    cancelledAfterHours: 20,
  },
  {
    drop: "ended",
    buyer: 8,
    paidAfterHours: 40,
    lines: [
      { product: "Aretes Medalla de Otoño", quantity: 1 },
      { product: "Huggies Hojarasca", quantity: 1 },
    ],
    status: "enviado",
    shipped: { carrier: "FedEx", tracking: "781251340628", afterHours: 28 },
  },
  {
    drop: "ended",
    buyer: 15,
    paidAfterHours: 55,
    lines: [{ product: "Brazalete Cosecha", quantity: 1 }],
    status: "enviado",
    shipped: { carrier: "DHL Express", tracking: "4418301968", afterHours: 22 },
  },
  {
    drop: "ended",
    buyer: 9,
    paidAfterHours: 75,
    lines: [
      { product: "Anillos Tarde Larga", size: "6", quantity: 1 },
      { product: "Esclavas Octubre", quantity: 1 },
    ],
    status: "enviado",
    shipped: { carrier: "Estafeta", tracking: "8055241528464730048230", afterHours: 26 },
  },
  {
    drop: "ended",
    buyer: 10,
    paidAfterHours: 100,
    lines: [{ product: "Collar Cempasúchil", quantity: 1 }],
    status: "enviado",
    shipped: { carrier: "99minutos", tracking: "99M2240318722", afterHours: 48 },
  },
  {
    drop: "ended",
    buyer: 11,
    paidAfterHours: 130,
    lines: [
      { product: "Aretes Medalla de Otoño", quantity: 1 },
      { product: "Collar Veleta", quantity: 1 },
    ],
    status: "pendiente",
  },
  {
    drop: "ended",
    buyer: 12,
    paidAfterHours: 150,
    lines: [{ product: "Solitario Candela", size: "4.5", quantity: 1 }],
    status: "pendiente",
  },
  {
    drop: "ended",
    buyer: 18,
    paidAfterHours: 165,
    lines: [
      { product: "Huggies Hojarasca", quantity: 1 },
      { product: "Anillos Tarde Larga", size: "8", quantity: 1 },
      { product: "Collar Veleta", quantity: 1 },
      { product: "Esclavas Octubre", quantity: 1 },
    ],
    status: "pendiente",
  },
];

/** An 'Avísame' sign-up of a drop that has opened since; hours are counted back from its opening. */
export interface DemoPastSignUp {
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  signedUpHoursBefore: number;
  confirmedHoursBefore?: number;
  /** Left the list this long after the opening notice. */
  unsubscribedHoursAfter?: number;
}

/**
 * The lists the ended and archived drops had: most confirmed, some of them bought (Reportes says
 * how many), one left after the opening notice, one never confirmed. Confirmed addresses got the
 * opening notice when the drop opened (`notified_at`).
 */
export const DEMO_PAST_WAITLISTS: Record<DemoOrder["drop"], DemoPastSignUp[]> = {
  ended: [
    {
      email: "mariana.lopez@example.com",
      status: "confirmada",
      signedUpHoursBefore: 20 * DAY,
      confirmedHoursBefore: 20 * DAY - 1,
    },
    {
      email: "sofia.hernandez@example.com",
      status: "confirmada",
      signedUpHoursBefore: 15 * DAY,
      confirmedHoursBefore: 15 * DAY - 2,
    },
    {
      email: "valeria.cruz@example.com",
      status: "confirmada",
      signedUpHoursBefore: 12 * DAY,
      confirmedHoursBefore: 11 * DAY,
    },
    {
      email: "ximena.ramirez@example.net",
      status: "confirmada",
      signedUpHoursBefore: 9 * DAY,
      confirmedHoursBefore: 9 * DAY - 1,
    },
    {
      email: "monica.ibarra@example.org",
      status: "confirmada",
      signedUpHoursBefore: 6 * DAY,
      confirmedHoursBefore: 6 * DAY - 3,
    },
    {
      email: "elena.bravo@example.com",
      status: "confirmada",
      signedUpHoursBefore: 3 * DAY,
      confirmedHoursBefore: 2 * DAY,
    },
    {
      email: "patricia.sandoval@example.com",
      status: "baja",
      signedUpHoursBefore: 10 * DAY,
      confirmedHoursBefore: 10 * DAY - 1,
      unsubscribedHoursAfter: 2,
    },
    { email: "teresa.orozco@example.net", status: "pendiente", signedUpHoursBefore: 1 * DAY },
  ],
  archived: [
    {
      email: "mariana.lopez@example.com",
      status: "confirmada",
      signedUpHoursBefore: 9 * DAY,
      confirmedHoursBefore: 9 * DAY - 1,
    },
    {
      email: "lorena.fuentes@example.com",
      status: "confirmada",
      signedUpHoursBefore: 7 * DAY,
      confirmedHoursBefore: 7 * DAY - 4,
    },
    {
      email: "beatriz.montes@example.org",
      status: "confirmada",
      signedUpHoursBefore: 4 * DAY,
      confirmedHoursBefore: 4 * DAY - 1,
    },
    { email: "ana.rangel@example.com", status: "pendiente", signedUpHoursBefore: 2 * DAY },
  ],
};
