// The demo catalogue: four drops (one running, one upcoming, one whose dates ended
// without its status being changed, one archived) with eight products each. Dates are offsets from the
// moment of seeding, so the demo always looks current.

import type { Karat } from "~/catalogue/metal";
import type { Categoria, DropStatus, Material, OptionName } from "~/db/taxonomy";

export interface DemoProduct {
  name: string;
  /** integer centavos, MXN */
  priceCents: number;
  /** integer >= 0; for the ended and archived drops, what was left after their orders (history.ts) */
  stock: number;
  categoria: Categoria;
  material: Material;
  /** The metal's facts (catalogue/metal.ts): mostly 14 k, some 10 k and 18 k. */
  karat: Karat;
  /** Weight in grams, up to two decimals (0.8–12 g for this catalogue). */
  grams: number;
  /** The stones, or null for none. */
  stones: string | null;
  /** A limited edition of this many numbered pieces; absent: not numbered. */
  edition?: number;
  /** Sizes (rings) or lengths, each with its own stock; `stock` is then their sum (decision 34). */
  option?: { name: OptionName; values: [value: string, stock: number][] };
  /** 1-3 sentences, Spanish */
  description: string;
  /** passed to jewelSvg as `variant` */
  artVariant: number;
  /** 0..4 extra images to generate (views 1..extraViews) */
  extraViews: number;
}

export type DemoCoverPalette = "arena" | "salvia" | "terracota" | "perla";

export interface DemoDrop {
  /** Which of the four demo situations this is. */
  role: "running" | "upcoming" | "ended" | "archived";
  name: string;
  /** one line, for cards (<= 90 chars) */
  smallDescription: string;
  /** 2-4 sentences, the story of the collection */
  fullDescription: string;
  /** 1-2 sentences, the collection page intro */
  description: string;
  status: DropStatus;
  /** Offsets relative to the moment of seeding, in hours (negative = past). */
  startOffsetHours: number;
  endOffsetHours: number;
  createdOffsetHours: number;
  cover: { seed: number; palette: DemoCoverPalette };
  products: DemoProduct[];
}

const DAY = 24;

export const DEMO_DROPS: DemoDrop[] = [
  {
    role: "running",
    name: "Mareas",
    smallDescription: "Perlas, oro blanco y formas que vienen de la costa de Oaxaca.",
    fullDescription:
      "Mareas nació en una semana de lluvia en Mazunte, viendo cómo el agua dejaba dibujos en la arena y volvía a borrarlos. Trabajamos el oro como si lo hubiera pulido el mar: bordes suaves, granulado fino y perlas de agua dulce que escogimos una por una. Son ocho piezas y pocas unidades de cada una, porque así se pueden hacer a mano.",
    description:
      "Ocho piezas inspiradas en la costa oaxaqueña, con perlas de agua dulce y oro de 10k a 18k. Disponible solo mientras dure la colección.",
    status: "activa",
    startOffsetHours: -3 * DAY,
    // Long enough that a kept demo install still has a running drop for a while.
    endOffsetHours: 12 * DAY + 5,
    createdOffsetHours: -10 * DAY,
    cover: { seed: 11, palette: "perla" },
    products: [
      {
        name: "Anillo Marea",
        priceCents: 480_000,
        stock: 3,
        categoria: "Anillo",
        material: "Oro amarillo",
        karat: 14,
        grams: 2.35,
        stones: "Perla de agua dulce de 6 mm",
        // Size 8 sold out: the page shows it, disabled.
        option: {
          name: "Talla",
          values: [
            ["5", 1],
            ["6", 1],
            ["7", 1],
            ["8", 0],
          ],
        },
        description:
          "Argolla delgada de oro amarillo de 14k con una perla de agua dulce de 6 mm, montada en un asiento hecho a mano.",
        artVariant: 3,
        extraViews: 4,
      },
      {
        name: "Collar Caracola",
        priceCents: 960_000,
        stock: 0,
        categoria: "Collar",
        material: "Oro rosa",
        karat: 14,
        grams: 4.8,
        stones: "Perla de agua dulce de 9 mm",
        description:
          "Cadena de bolitas de oro rosa de 14k con una perla redonda de 9 mm que cuelga de un capuchón cincelado. Mide 45 cm y cierra con broche de langosta.",
        artVariant: 1,
        extraViews: 3,
      },
      {
        name: "Arracadas Espuma",
        priceCents: 740_000,
        stock: 2,
        categoria: "Arete",
        material: "Oro amarillo",
        karat: 14,
        grams: 3.6,
        stones: null,
        edition: 12,
        description:
          "Arracadas de media luna en oro amarillo de 14k, con una línea de granulado hecha bolita por bolita. Miden 3.5 cm y pesan lo justo para usarlas todo el día.",
        artVariant: 0,
        extraViews: 4,
      },
      {
        name: "Esclava Horizonte",
        priceCents: 2_350_000,
        stock: 1,
        categoria: "Pulsera",
        material: "Oro blanco",
        karat: 18,
        grams: 11.4,
        stones: "Diamante de 0.10 ct",
        description:
          "Esclava rígida de oro blanco de 18k, forjada a partir de un solo alambre de 3 mm, con un diamante de 0.10 ct engastado en bisel. Diámetro interior de 6 cm.",
        artVariant: 0,
        extraViews: 2,
      },
      {
        name: "Aretes Gota de Mar",
        priceCents: 165_000,
        stock: 12,
        categoria: "Arete",
        material: "Oro blanco",
        karat: 10,
        grams: 1.6,
        stones: "Perlas de agua dulce de 7 mm",
        description:
          "Aretes de poste en oro blanco de 10k con una barrita fina y una perla de agua dulce de 7 mm. Ligeros, para diario.",
        artVariant: 4,
        extraViews: 0,
      },
      {
        name: "Anillo Bajamar",
        priceCents: 600_000,
        stock: 0,
        categoria: "Anillo",
        material: "Oro rosa",
        karat: 14,
        grams: 4.2,
        stones: null,
        description:
          "Argolla de 5 mm en oro rosa de 14k con una línea grabada al centro, como la marca que deja el agua al bajar. Se hace sobre pedido de talla, del 5 al 9.",
        artVariant: 1,
        extraViews: 1,
      },
      {
        name: "Collar Luna de Mazunte",
        priceCents: 1_280_000,
        stock: 4,
        categoria: "Collar",
        material: "Oro blanco",
        karat: 14,
        grams: 2.9,
        stones: "Diamante pequeño",
        option: {
          name: "Largo",
          values: [
            ["40 cm", 2],
            ["45 cm", 2],
          ],
        },
        description:
          "Media luna de oro blanco de 14k con un pequeño diamante, en cadena de eslabón alargado. La luna está recortada y pulida a mano.",
        artVariant: 2,
        extraViews: 4,
      },
      {
        name: "Pulsera Malecón",
        priceCents: 520_000,
        stock: 6,
        categoria: "Pulsera",
        material: "Oro amarillo",
        karat: 10,
        grams: 3.1,
        stones: null,
        description:
          "Cadena de eslabón alargado en oro amarillo de 10k con un dije de luna que se mueve al caminar. Mide 18 cm con un anillo extra para ajustarla a 16.5 cm.",
        artVariant: 1,
        extraViews: 0,
      },
    ],
  },
  {
    role: "upcoming",
    name: "Jardín de Invierno",
    smallDescription: "Esmeraldas, perlas y hojas de oro para los meses fríos. Muy pronto.",
    fullDescription:
      "En diciembre el jardín de la casa de Jalatlaco se llena de helechos, camelias y rocío en las mañanas. Jardín de Invierno toma esas formas pequeñas y las lleva al oro: hojas, tallos y gotas, con esmeraldas colombianas y perlas de agua dulce. Estamos terminando de engastar las últimas piezas.",
    description:
      "Una colección de hojas, tallos y gotas en oro de 10k a 18k, con esmeraldas y perlas. Abre pronto y las piezas son pocas.",
    status: "proximamente",
    startOffsetHours: 9 * DAY,
    endOffsetHours: 14 * DAY,
    createdOffsetHours: -2 * DAY,
    cover: { seed: 24, palette: "salvia" },
    products: [
      {
        name: "Broqueles Camelia",
        priceCents: 199_999,
        stock: 15,
        categoria: "Arete",
        material: "Oro rosa",
        karat: 10,
        grams: 1.2,
        stones: "Perlas de 4 mm",
        description:
          "Broqueles de flor de cinco pétalos en oro rosa de 10k, con una perla de 4 mm al centro. Miden 1 cm y cierran con mariposa de presión.",
        artVariant: 1,
        extraViews: 2,
      },
      {
        name: "Anillo Helecho",
        priceCents: 1_190_000,
        stock: 3,
        categoria: "Anillo",
        material: "Oro amarillo",
        karat: 14,
        grams: 3.4,
        stones: "Esmeralda de 5 × 4 mm",
        option: {
          name: "Talla",
          values: [
            ["5", 0],
            ["6", 1],
            ["7", 1],
            ["8", 1],
          ],
        },
        description:
          "Anillo de oro amarillo de 14k con una esmeralda de talla esmeralda de 5 × 4 mm, sujeta con cuatro garras.",
        artVariant: 2,
        extraViews: 4,
      },
      {
        name: "Collar Rocío",
        priceCents: 1_650_000,
        stock: 2,
        categoria: "Collar",
        material: "Oro amarillo",
        karat: 18,
        grams: 3.75,
        stones: "Esmeralda en gota",
        description:
          "Gota de esmeralda en bisel de oro amarillo de 18k, colgada de una cadena torzal de 45 cm. La cadena está torcida a mano en el taller.",
        artVariant: 3,
        extraViews: 3,
      },
      {
        name: "Pulsera Enredadera",
        priceCents: 3_400_000,
        stock: 1,
        categoria: "Pulsera",
        material: "Oro blanco",
        karat: 18,
        grams: 9.8,
        stones: "32 diamantes de 2 mm",
        description:
          "Riviera de oro blanco de 18k con treinta y dos diamantes de 2 mm, cada uno en su propio chatón. Mide 17 cm y cierra con broche de caja con seguro.",
        artVariant: 3,
        extraViews: 4,
      },
      {
        name: "Aretes Hoja de Invierno",
        priceCents: 890_000,
        stock: 4,
        categoria: "Arete",
        material: "Oro blanco",
        karat: 14,
        grams: 2.2,
        stones: "Esmeraldas en gota",
        description:
          "Aretes de gancho en oro blanco de 14k con una gota de esmeralda en bisel. Caen 3 cm desde el lóbulo.",
        artVariant: 2,
        extraViews: 1,
      },
      {
        name: "Collar Semilla",
        priceCents: 560_000,
        stock: 8,
        categoria: "Collar",
        material: "Oro rosa",
        karat: 14,
        grams: 2.05,
        stones: "Diamante pequeño",
        description:
          "Barra de oro rosa de 14k con un diamante pequeño en la punta, en cadena fina de 40 cm con extensión a 45 cm.",
        artVariant: 4,
        extraViews: 0,
      },
      {
        name: "Anillo Escarcha",
        priceCents: 1_870_000,
        stock: 2,
        categoria: "Anillo",
        material: "Oro blanco",
        karat: 18,
        grams: 6.5,
        stones: "3 diamantes, el central de 0.08 ct",
        option: {
          name: "Talla",
          values: [
            ["5", 0],
            ["6", 1],
            ["7", 0],
            ["8", 1],
            ["9", 0],
          ],
        },
        description:
          "Banda ancha de oro blanco de 18k con tres diamantes engastados al ras, el del centro de 0.08 ct.",
        artVariant: 4,
        extraViews: 2,
      },
      {
        name: "Esclava Tallo",
        priceCents: 1_340_000,
        stock: 3,
        categoria: "Pulsera",
        material: "Oro amarillo",
        karat: 14,
        grams: 5.6,
        stones: "Esmeralda pequeña",
        description:
          "Esclava delgada de oro amarillo de 14k con una esmeralda pequeña en bisel, como un brote en el tallo. Diámetro interior de 6 cm.",
        artVariant: 5,
        extraViews: 0,
      },
    ],
  },
  {
    role: "ended",
    name: "Luz de Otoño",
    smallDescription: "Oro cálido, medallas de sol y la luz de la tarde en octubre.",
    fullDescription:
      "Luz de Otoño salió de las tardes de octubre en el taller, cuando el sol entra bajo y todo el oro se ve color cempasúchil. Hicimos medallas con rayos grabados, un brazalete ancho de 18k y argollas delgadas para usar juntas. Fue nuestra colección más pedida del año.",
    description:
      "Medallas de sol, argollas para combinar y un brazalete ancho, en oro amarillo, rosa y blanco. Una colección de temporada, en piezas contadas.",
    status: "activa",
    startOffsetHours: -27 * DAY,
    endOffsetHours: -20 * DAY,
    createdOffsetHours: -120 * DAY,
    cover: { seed: 37, palette: "terracota" },
    products: [
      {
        name: "Collar Cempasúchil",
        priceCents: 980_000,
        stock: 0,
        categoria: "Collar",
        material: "Oro amarillo",
        karat: 14,
        grams: 5.2,
        stones: null,
        description:
          "Medalla de 2 cm en oro amarillo de 14k con doce rayos grabados a buril, en cadena rolo de 45 cm.",
        artVariant: 0,
        extraViews: 4,
      },
      {
        name: "Anillos Tarde Larga",
        priceCents: 390_000,
        stock: 4,
        categoria: "Anillo",
        material: "Oro rosa",
        karat: 10,
        grams: 2.7,
        stones: "Diamante de 0.03 ct",
        option: {
          name: "Talla",
          values: [
            ["5", 1],
            ["6", 1],
            ["7", 1],
            ["8", 1],
          ],
        },
        description:
          "Juego de dos argollas delgadas de oro rosa de 10k para usar juntas; una lleva un diamante de 0.03 ct.",
        artVariant: 5,
        extraViews: 2,
      },
      {
        name: "Huggies Hojarasca",
        priceCents: 690_000,
        stock: 2,
        categoria: "Arete",
        material: "Oro amarillo",
        karat: 14,
        grams: 2.4,
        stones: "7 diamantes pequeños en cada arracada",
        description:
          "Arracadas pegadas al lóbulo en oro amarillo de 14k, de 12 mm, con siete diamantes pequeños en la mitad de abajo.",
        artVariant: 3,
        extraViews: 1,
      },
      {
        name: "Brazalete Cosecha",
        priceCents: 3_850_000,
        stock: 1,
        categoria: "Pulsera",
        material: "Oro amarillo",
        karat: 18,
        grams: 12,
        stones: "5 diamantes",
        // Two of the three numbered pieces were sold (history.ts): 'Pieza 1 de 3', 'Pieza 2 de 3'.
        edition: 3,
        description:
          "Brazalete ancho de 2 cm en oro amarillo de 18k, con dos líneas grabadas y cinco diamantes al frente. Abierto por detrás, se ajusta a muñecas de 15 a 17 cm.",
        artVariant: 2,
        extraViews: 4,
      },
      {
        name: "Solitario Candela",
        priceCents: 2_100_000,
        stock: 2,
        categoria: "Anillo",
        material: "Oro amarillo",
        karat: 18,
        grams: 2.85,
        stones: "Diamante de 0.25 ct",
        option: {
          name: "Talla",
          values: [
            ["4.5", 0],
            ["5", 1],
            ["6", 0],
            ["7", 1],
            ["8", 0],
          ],
        },
        description:
          "Solitario de oro amarillo de 18k con un diamante de 0.25 ct en canasta de cuatro garras.",
        artVariant: 0,
        extraViews: 3,
      },
      {
        name: "Aretes Medalla de Otoño",
        priceCents: 780_000,
        stock: 0,
        categoria: "Arete",
        material: "Oro rosa",
        karat: 14,
        grams: 1.9,
        stones: null,
        description:
          "Pequeñas medallas de sol en oro rosa de 14k, colgadas de gancho francés. Miden 2.5 cm de largo.",
        artVariant: 8,
        extraViews: 0,
      },
      {
        name: "Collar Veleta",
        priceCents: 820_000,
        stock: 5,
        categoria: "Collar",
        material: "Oro blanco",
        karat: 14,
        grams: 2.6,
        stones: "Diamante pequeño",
        description:
          "Barra vertical de oro blanco de 14k con un diamante en la punta, en cadena de eslabón alargado de 42 cm.",
        artVariant: 9,
        extraViews: 2,
      },
      {
        name: "Esclavas Octubre",
        priceCents: 460_000,
        stock: 6,
        categoria: "Pulsera",
        material: "Oro blanco",
        karat: 10,
        grams: 7.4,
        stones: null,
        description:
          "Par de esclavas delgadas de oro blanco de 10k, una lisa y una un poco más ancha, para usar juntas o separadas. Diámetro interior de 6.2 cm.",
        artVariant: 4,
        extraViews: 0,
      },
    ],
  },
  {
    role: "archived",
    name: "Raíces",
    smallDescription: "Arracadas de filigrana, medallas y esclavas pesadas, de la tradición oaxaqueña.",
    fullDescription:
      "Raíces fue nuestro homenaje a la joyería que se ve en las fiestas de Oaxaca: arracadas que pasan de abuelas a nietas, medallas y esclavas con peso. Trabajamos con dos maestros orfebres del Valle de Oaxaca para aprender su granulado y sus cierres. Es una colección archivada; la dejamos aquí para que se pueda ver.",
    description:
      "Piezas de tradición oaxaqueña reinterpretadas en el taller: arracadas, medallas y esclavas en oro de 10k a 18k. Colección archivada.",
    status: "archivada",
    // Sold over five weeks about four months ago (history.ts): Reportes has months to draw.
    startOffsetHours: -128 * DAY,
    endOffsetHours: -93 * DAY,
    createdOffsetHours: -420 * DAY,
    cover: { seed: 54, palette: "arena" },
    products: [
      {
        name: "Arracadas Sol de Oaxaca",
        priceCents: 2_480_000,
        stock: 0,
        categoria: "Arete",
        material: "Oro amarillo",
        karat: 18,
        grams: 6.8,
        stones: "Esmeraldas pequeñas",
        description:
          "Arracadas grandes de media luna en oro amarillo de 18k, con granulado a mano y una esmeralda pequeña abajo. Miden 4 cm y cierran con bisagra.",
        artVariant: 6,
        extraViews: 4,
      },
      {
        name: "Medalla Monte Albán",
        priceCents: 1_040_000,
        stock: 1,
        categoria: "Collar",
        material: "Oro amarillo",
        karat: 14,
        grams: 6.1,
        stones: null,
        description:
          "Medalla de oro amarillo de 14k con un sol grabado, en cadena de eslabón alargado de 50 cm. Se puede grabar una fecha al reverso.",
        artVariant: 5,
        extraViews: 2,
      },
      {
        name: "Argolla Raíz",
        priceCents: 720_000,
        stock: 2,
        categoria: "Anillo",
        material: "Oro amarillo",
        karat: 14,
        grams: 4.9,
        stones: null,
        option: {
          name: "Talla",
          values: [
            ["5", 0],
            ["7", 1],
            ["9", 1],
            ["11", 0],
          ],
        },
        description: "Argolla de 6 mm en oro amarillo de 14k, con una línea grabada al centro.",
        artVariant: 7,
        extraViews: 1,
      },
      {
        name: "Anillo Milpa",
        priceCents: 290_000,
        stock: 3,
        categoria: "Anillo",
        material: "Oro rosa",
        karat: 10,
        grams: 1.85,
        stones: "Perla de 5 mm",
        option: {
          name: "Talla",
          values: [
            ["5", 1],
            ["6", 1],
            ["7", 1],
            ["8", 0],
          ],
        },
        description: "Anillo de oro rosa de 10k con una perla de 5 mm montada arriba, como un grano de maíz.",
        artVariant: 8,
        extraViews: 0,
      },
      {
        name: "Pulsera Camino Real",
        priceCents: 330_000,
        stock: 5,
        categoria: "Pulsera",
        material: "Oro blanco",
        karat: 10,
        grams: 2.4,
        stones: null,
        description:
          "Cadena de eslabón alargado en oro blanco de 10k con un dije de luna. Mide 17 cm con argolla para ajustarla a 15.5 cm.",
        artVariant: 6,
        extraViews: 2,
      },
      {
        name: "Collar Ofrenda",
        priceCents: 860_000,
        stock: 0,
        categoria: "Collar",
        material: "Oro rosa",
        karat: 14,
        grams: 3.3,
        stones: "Perla de agua dulce de 9 mm",
        description:
          "Perla de agua dulce de 9 mm en cadena torzal de oro rosa de 14k, de 45 cm. Una pieza sencilla para ocasiones que importan.",
        artVariant: 6,
        extraViews: 3,
      },
      {
        name: "Broqueles Flor de Mayo",
        priceCents: 420_000,
        stock: 4,
        categoria: "Arete",
        material: "Oro blanco",
        karat: 14,
        grams: 1.1,
        stones: "Diamantes pequeños",
        description:
          "Broqueles de flor en oro blanco de 14k con un diamante al centro. Miden 1 cm y cierran con mariposa de rosca.",
        artVariant: 7,
        extraViews: 1,
      },
      {
        name: "Esclava Tierra Mojada",
        priceCents: 2_800_000,
        stock: 1,
        categoria: "Pulsera",
        material: "Oro amarillo",
        karat: 18,
        grams: 11.9,
        stones: "Perla de 6 mm",
        description:
          "Esclava gruesa de oro amarillo de 18k, forjada a martillo, con una perla de 6 mm engastada al frente. Diámetro interior de 6 cm.",
        artVariant: 10,
        extraViews: 4,
      },
    ],
  },
];

export interface DemoSignUp {
  email: string;
  status: "pendiente" | "confirmada" | "baja";
  /** Hours before seeding that the address signed up (and, when it did, confirmed or left). */
  signedUpHoursAgo: number;
  confirmedHoursAgo?: number;
  unsubscribedHoursAgo?: number;
}

/**
 * 'Avísame' sign-ups for the upcoming drop, so Campañas shows a list in every state. Addresses
 * on example.com (reserved: nothing sent to them reaches anyone).
 */
export const DEMO_WAITLIST: DemoSignUp[] = [
  { email: "mariana.lopez@example.com", status: "confirmada", signedUpHoursAgo: 40, confirmedHoursAgo: 39 },
  { email: "sofia.hernandez@example.com", status: "confirmada", signedUpHoursAgo: 30, confirmedHoursAgo: 30 },
  { email: "valeria.cruz@example.com", status: "confirmada", signedUpHoursAgo: 20, confirmedHoursAgo: 12 },
  { email: "daniela.ortiz@example.com", status: "pendiente", signedUpHoursAgo: 6 },
  { email: "renata.flores@example.com", status: "pendiente", signedUpHoursAgo: 2 },
  {
    email: "lucia.mendoza@example.com",
    status: "baja",
    signedUpHoursAgo: 36,
    confirmedHoursAgo: 35,
    unsubscribedHoursAgo: 10,
  },
];
