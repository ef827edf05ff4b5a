import { z } from "zod";
import { MAX_ORDER_PIECES } from "~/config/ceilings";
import type { ShopDetails } from "~/config/shop-details";
import {
  BRAND,
  type Illustration,
  type ProcessStep,
  STORY_CARDS,
  TIMELINE,
  WORKSHOP_BEFORE_AFTER,
} from "~/content/brand";
import {
  isLegalPath,
  LEGAL_LINKS,
  type LegalPath,
  type LegalSection,
  legalPage,
  withoutOwnerNotes,
} from "~/content/legal";
import { isId } from "~/lib/ids";
import { safeText } from "~/lib/text";
import { type Carrier, DEFAULT_CARRIERS, GUIA, OTHER_CARRIER } from "~/settings/carriers";
import {
  INSTALLMENT_MONTHS,
  type InstallmentMonths,
  type Installments,
  MAX_INSTALLMENTS_PESOS,
  MIN_INSTALLMENTS_PESOS,
} from "~/settings/installments";
import {
  daysField,
  MAX_FREE_FROM_PESOS,
  MAX_SHIPPING_PESOS,
  parseDays,
  type ShippingRates,
} from "~/settings/shipping-rates";
import { DEFAULT_VOUCHER_DAYS, VOUCHER_DAYS, type VoucherDays, type Vouchers } from "~/settings/vouchers";

/*
 * Configuración (decision 24): the shop's details, carriers, the default 'Máximo por persona' and
 * the legal pages' texts. The environment gives every first value; the owner's changes are stored
 * as overrides of single fields, so a field never changed keeps following the environment.
 * Plain TypeScript: the form (Conform) and the server share this schema.
 */

export const LEGAL_FIELDS = {
  legalPrivacy: "/aviso-de-privacidad",
  legalShipping: "/envios",
  legalReturns: "/cambios-y-devoluciones",
  legalTerms: "/terminos-y-condiciones",
} as const satisfies Record<string, LegalPath>;
export type LegalField = keyof typeof LEGAL_FIELDS;
const LEGAL_FIELD_NAMES = Object.keys(LEGAL_FIELDS) as LegalField[];

/** Everything the shop reads from Configuración. */
export interface ShopSettings {
  shop: ShopDetails;
  carriers: Carrier[];
  /** 'Máximo N por persona' a new drop's form starts with; null for none. */
  defaultMaxPerOrder: number | null;
  /** The owner's text of each legal page; null for the model text (app/content/legal.ts). */
  legal: Record<LegalField, string | null>;
  /** The storefront's story: home hero, brand text, process steps (decision 40). */
  storefront: StorefrontStory;
  /** Cash at OXXO and bank transfers (SPEI), with the days a voucher lives (decision 42). */
  vouchers: Vouchers;
  /** Days after shipping an order counts as delivered unless marked sooner (the return window starts then). */
  deliveryDays: number;
  /** 'Meses sin intereses' on credit cards: offered from a total, up to a number of months. */
  installments: Installments;
  /** Shipping rates: standard and express, standard free from a total (decision 43). */
  shippingRates: ShippingRates;
}

/** What the home page (and /nosotros) tell about the shop; the first values are app/content/brand.ts. */
export interface StorefrontStory {
  /** The hero's title; null: the shop's name (so renaming the shop renames the hero). */
  heroTitle: string | null;
  heroText: string;
  /** An uploaded photo (media id) for the hero; null: the brand's illustration. */
  heroImage: string | null;
  /** What the uploaded photo shows (empty while there is none). */
  heroImageAlt: string;
  /** The brand section's text. */
  brandStory: string;
  /** The artisan process, PROCESS_STEPS steps of a title and one sentence. */
  processSteps: ProcessStep[];
  /** /nosotros: the story, one card per chapter, oldest first. */
  storyCards: StoryCard[];
  /** /nosotros: milestones, oldest first. */
  timeline: TimelineEntry[];
  /** /nosotros: workshop photos, the same thing before and after the work. */
  workshopPairs: WorkshopPair[];
}

/**
 * A picture of the story: an uploaded photo (media id) or one of the brand's illustrations (its
 * path under public/, e.g. "/brand/antes-mesa.svg"), with what it shows.
 */
export interface StoryCard {
  year: string;
  title: string;
  text: string;
  image: string | null;
  imageAlt: string;
}
export interface TimelineEntry {
  year: string;
  title: string;
  text: string;
}
export interface WorkshopPair {
  title: string;
  caption: string;
  before: string | null;
  beforeAlt: string;
  after: string | null;
  afterAlt: string;
}

/** Every field of the form, as the schema returns it. */
export interface SettingsValues extends ShopDetails {
  defaultMaxPerOrder: number | null;
  carriers: Carrier[];
  legalPrivacy: string;
  legalShipping: string;
  legalReturns: string;
  legalTerms: string;
  heroTitle: string;
  heroText: string;
  heroImage: string | null;
  heroImageAlt: string;
  brandStory: string;
  processSteps: ProcessStep[];
  storyCards: StoryCard[];
  timeline: TimelineEntry[];
  workshopPairs: WorkshopPair[];
  oxxoEnabled: boolean;
  speiEnabled: boolean;
  voucherDays: VoucherDays;
  deliveryDays: number;
  installmentsEnabled: boolean;
  installmentsMonths: InstallmentMonths;
  /** The smallest total that offers them, in whole pesos. */
  installmentsMinimum: number;
  shippingStandardLabel: string;
  /** Business days, as the form shows them: '3 a 7'. */
  shippingStandardDays: string;
  /** In whole pesos. */
  shippingStandardCost: number;
  shippingExpressLabel: string;
  shippingExpressDays: string;
  shippingExpressCost: number;
  /** The pieces' total from which standard shipping is free, in whole pesos; null: never. */
  shippingFreeFrom: number | null;
}
export type SettingsField = keyof SettingsValues;
/** What is stored: only the fields the owner changed. */
export type SettingsOverrides = Partial<SettingsValues>;

export const DETAIL_FIELDS = [
  "name",
  "email",
  "whatsapp",
  "instagramUrl",
  "agencyName",
  "agencyUrl",
  "processVideoUrl",
] as const satisfies readonly (keyof ShopDetails)[];
/** The storefront's story ('Tienda en línea'). */
export const STORY_FIELDS = [
  "heroTitle",
  "heroText",
  "heroImage",
  "heroImageAlt",
  "brandStory",
  "processSteps",
  "storyCards",
  "timeline",
  "workshopPairs",
] as const satisfies readonly (keyof StorefrontStory)[];
/** OXXO and SPEI (in the 'Compras' part of the form). */
export const VOUCHER_FIELDS = [
  "oxxoEnabled",
  "speiEnabled",
  "voucherDays",
] as const satisfies readonly SettingsField[];
/** 'Meses sin intereses' (in the 'Compras' part of the form). */
export const INSTALLMENT_FIELDS = [
  "installmentsEnabled",
  "installmentsMonths",
  "installmentsMinimum",
] as const satisfies readonly SettingsField[];
/** Shipping rates (in the 'Compras' part of the form). */
export const SHIPPING_FIELDS = [
  "shippingStandardLabel",
  "shippingStandardDays",
  "shippingStandardCost",
  "shippingExpressLabel",
  "shippingExpressDays",
  "shippingExpressCost",
  "shippingFreeFrom",
] as const satisfies readonly SettingsField[];
export const SETTINGS_FIELDS: readonly SettingsField[] = [
  ...DETAIL_FIELDS,
  "defaultMaxPerOrder",
  ...VOUCHER_FIELDS,
  "deliveryDays",
  ...INSTALLMENT_FIELDS,
  ...SHIPPING_FIELDS,
  "carriers",
  ...LEGAL_FIELD_NAMES,
  ...STORY_FIELDS,
];
export function isSettingsField(value: string): value is SettingsField {
  return (SETTINGS_FIELDS as readonly string[]).includes(value);
}

export const MAX_CARRIERS = 20;
export const MAX_LEGAL_CHARS = 20_000;
export const PROCESS_STEPS = 4;
/**
 * The storefront's photos are uploaded like a drop's (POST /admin/media) under this folder, which
 * no drop can have (newId never makes a 0).
 */
export const STOREFRONT_MEDIA_FOLDER = "storefront000000";
export const MAX_STORY_CARDS = 12;
export const MAX_TIMELINE_ENTRIES = 20;
export const MAX_WORKSHOP_PAIRS = 4;

/** The brand's illustrations a story picture may name (app/content/brand.ts), by path. */
const ILLUSTRATIONS = new Map<string, Illustration>(
  [...STORY_CARDS.map((c) => c.image), ...WORKSHOP_BEFORE_AFTER.flatMap((p) => [p.before, p.after])].map(
    (i) => [i.src, i],
  ),
);
export function brandIllustration(ref: string): Illustration | undefined {
  return ILLUSTRATIONS.get(ref);
}
export const MAX_HERO_TITLE_CHARS = 80;
export const MAX_HERO_TEXT_CHARS = 240;
export const MAX_BRAND_STORY_CHARS = 1_200;

/** Only http(s): these addresses end up in links and frames. */
function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const text = (label: string, what: string, max: number) =>
  safeText({ label, error: `Escribe ${what}.` })
    .min(1, `Escribe ${what}.`)
    .max(max, `${label}: máximo ${max} caracteres.`);

const webAddress = (label: string, example: string) =>
  safeText({ label, error: `Escribe la dirección de ${label.toLowerCase()}.` })
    .max(500, `${label}: máximo 500 caracteres.`)
    .refine(
      isWebAddress,
      `${label}: escribe una dirección web completa que empiece con https:// (p. ej. ${example}).`,
    );

const legalText = (label: string) =>
  safeText({ label, multiline: true, error: `Escribe el texto de «${label}» o usa Restablecer.` })
    .min(1, `Escribe el texto de «${label}» o usa Restablecer.`)
    .max(MAX_LEGAL_CHARS, `«${label}»: máximo ${MAX_LEGAL_CHARS.toLocaleString("es-MX")} caracteres.`);

const carrierSchema = z.object({
  name: text("Paquetería", "el nombre de la paquetería", 60).refine(
    (v) => v.toLowerCase() !== OTHER_CARRIER.toLowerCase(),
    `«${OTHER_CARRIER}» ya está siempre en la lista; usa otro nombre.`,
  ),
  trackingUrl: safeText({ label: "Seguimiento" })
    .max(500, "Seguimiento: máximo 500 caracteres.")
    .refine(
      isWebAddress,
      `Seguimiento: escribe una dirección web completa que empiece con https://, con ${GUIA} donde va el número de guía.`,
    )
    .refine(
      (v) => v.includes(GUIA),
      `Seguimiento: la dirección debe incluir ${GUIA} donde va el número de guía.`,
    )
    .optional()
    .transform((v) => v ?? null),
});

const processStepSchema = z.object({
  title: text("Título del paso", "el título del paso", 60),
  description: safeText({ label: "Frase del paso", error: "Escribe una frase que explique el paso." })
    .min(1, "Escribe una frase que explique el paso.")
    .max(200, "Frase del paso: máximo 200 caracteres."),
});

/** A story picture: an uploaded photo's id or a brand illustration's path; empty for none. */
const pictureRef = (label: string) =>
  safeText({ label })
    .refine((v) => isId(v) || ILLUSTRATIONS.has(v), `${label}: súbela de nuevo.`)
    .optional()
    .transform((v) => v ?? null);
const pictureAlt = (label: string) =>
  safeText({ label })
    .max(200, `${label}: máximo 200 caracteres.`)
    .optional()
    .transform((v) => v ?? "");
const yearText = text("Año", "el año (p. ej. 2016)", 20);
const storyText = (label: string, what: string) =>
  safeText({ label, multiline: true, error: `Escribe ${what}.` })
    .min(1, `Escribe ${what}.`)
    .max(400, `${label}: máximo 400 caracteres.`);
const DESCRIBE_PHOTO = "Escribe qué muestra la foto.";

const storyCardSchema = z
  .object({
    year: yearText,
    title: text("Título", "el título", 80),
    text: storyText("Texto", "el texto de la tarjeta"),
    image: pictureRef("Foto"),
    imageAlt: pictureAlt("Qué muestra la foto"),
  })
  .refine((c) => c.image === null || c.imageAlt !== "", { path: ["imageAlt"], message: DESCRIBE_PHOTO });

const timelineSchema = z.object({
  year: yearText,
  title: text("Título", "el título", 80),
  text: storyText("Texto", "el texto del momento"),
});

const workshopPairSchema = z
  .object({
    title: text("Título", "el título", 80),
    caption: storyText("Texto", "qué cambió entre las dos fotos"),
    before: pictureRef("Foto de antes"),
    beforeAlt: pictureAlt("Qué muestra la foto de antes"),
    after: pictureRef("Foto de después"),
    afterAlt: pictureAlt("Qué muestra la foto de después"),
  })
  .superRefine((p, ctx) => {
    if (p.before === null)
      ctx.addIssue({ code: "custom", path: ["before"], message: "Sube la foto de antes." });
    else if (p.beforeAlt === "")
      ctx.addIssue({ code: "custom", path: ["beforeAlt"], message: DESCRIBE_PHOTO });
    if (p.after === null)
      ctx.addIssue({ code: "custom", path: ["after"], message: "Sube la foto de después." });
    else if (p.afterAlt === "") ctx.addIssue({ code: "custom", path: ["afterAlt"], message: DESCRIBE_PHOTO });
  });

/**
 * Shipping until the owner changes it (decision 43): standard $150 in 3 to 7 business days,
 * express $350 in 1 to 2, standard free from $3,000 of pieces.
 */
export const DEFAULT_SHIPPING_RATES: ShippingRates = {
  standard: { label: "Envío estándar", cents: 15_000, minDays: 3, maxDays: 7 },
  express: { label: "Envío express", cents: 35_000, minDays: 1, maxDays: 2 },
  freeFromCents: 300_000,
};

/** Whole pesos as people write them ('$1,500'); empty: `fallback`. NaN when it is no number. */
const pesos = (fallback: number | null) =>
  z
    .union([z.number(), z.string().trim()])
    .optional()
    .transform((v) =>
      typeof v === "string" ? Number(v.replace(/[$,\s]/g, "") || Number.NaN) : (v ?? fallback),
    );

/** Required: an emptied cost is asked for, not quietly put back to the first $150 (0 is free). */
const shippingCost = (label: string) =>
  pesos(null)
    .refine(
      (v): v is number => v !== null && Number.isInteger(v) && v >= 0 && v <= MAX_SHIPPING_PESOS,
      `${label}: escribe el costo en pesos, sin centavos, de 0 a ${MAX_SHIPPING_PESOS.toLocaleString("es-MX")} (0 es gratis).`,
    )
    .transform((v) => v as number);

/** Business days ('3 a 7', '5'), kept as the form shows them. */
const shippingDays = (label: string, fallback: string) =>
  safeText({ label })
    .optional()
    .transform((v) => v ?? fallback)
    .transform((v) => parseDays(v))
    .refine(
      (v) => v !== null,
      `${label}: escribe los días hábiles de entrega, de 1 a 30, p. ej. «3 a 7» o «5».`,
    )
    .transform((v) => daysField(v as NonNullable<typeof v>));

/**
 * The Configuración form. Empty fields arrive as undefined (Conform's coercion): an optional one
 * (video, 'Máximo por persona', a carrier's link) means "none".
 */
/** A checkbox: "on" when ticked, absent when not; stored overrides keep the boolean. */
const checkbox = () =>
  z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v) => v === true || v === "on" || v === "true");

export const settingsSchema = z
  .object({
    name: text("Nombre de la tienda", "el nombre de la tienda", 80),
    email: safeText({ label: "Correo", error: "Escribe el correo de contacto." }).pipe(
      z
        .email({ error: "Escribe un correo válido, p. ej. hola@tutienda.mx." })
        .max(254, "Correo: demasiado largo."),
    ),
    whatsapp: safeText({ label: "WhatsApp", error: "Escribe el número de WhatsApp." })
      // People write numbers with spaces, dashes and a leading +: only the digits are kept.
      .transform((v) => v.replace(/[\s\-().+]/g, ""))
      .refine(
        (v) => /^\d{10,15}$/.test(v),
        "WhatsApp: escribe el número con lada internacional, solo dígitos (10 a 15), p. ej. 5215512345678.",
      ),
    instagramUrl: webAddress("Instagram", "https://www.instagram.com/tutienda"),
    agencyName: text("Agencia", "el nombre de la agencia", 80),
    agencyUrl: webAddress("Sitio de la agencia", "https://agencia.mx"),
    processVideoUrl: webAddress("Video del proceso", "https://www.youtube-nocookie.com/embed/…")
      .optional()
      .transform((v) => v ?? null),
    defaultMaxPerOrder: z
      .string()
      .trim()
      .refine(
        (v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_ORDER_PIECES,
        `Máximo por persona: escribe un número de 1 a ${MAX_ORDER_PIECES}, o déjalo vacío para no limitar.`,
      )
      .transform(Number)
      .optional()
      .transform((v) => v ?? null),
    deliveryDays: z
      .union([z.number(), z.string().trim()])
      .optional()
      .transform((v) => (v === undefined || v === "" ? DEFAULT_DELIVERY_DAYS : Number(v)))
      .refine(
        (v) => Number.isInteger(v) && v >= 1 && v <= 30,
        "Días hábiles para dar un envío por entregado: escribe de 1 a 30.",
      ),
    oxxoEnabled: checkbox(),
    speiEnabled: checkbox(),
    voucherDays: z
      .union([z.number(), z.string().trim()])
      .optional()
      .transform((v) => Number(v || DEFAULT_VOUCHER_DAYS))
      .refine(
        (v): v is VoucherDays => (VOUCHER_DAYS as readonly number[]).includes(v),
        "Días para pagar la ficha: elige 1, 2 o 3.",
      )
      .transform((v) => v as VoucherDays),
    // A checkbox: "on" when ticked, absent when not; stored overrides keep the boolean.
    installmentsEnabled: z
      .union([z.boolean(), z.string()])
      .optional()
      .transform((v) => v === true || v === "on" || v === "true"),
    // Empty (or a form from before these fields): the first values.
    installmentsMonths: z
      .union([z.number(), z.string().trim()])
      .optional()
      .transform((v) => Number(v ?? DEFAULT_INSTALLMENT_MONTHS))
      .refine(
        (v): v is InstallmentMonths => (INSTALLMENT_MONTHS as readonly number[]).includes(v),
        `Meses sin intereses: elige ${INSTALLMENT_MONTHS.slice(0, -1).join(", ")} o ${INSTALLMENT_MONTHS.at(-1)}.`,
      )
      .transform((v) => v as InstallmentMonths),
    installmentsMinimum: z
      .union([z.number(), z.string().trim()])
      .optional()
      // People write amounts with a $ and thousands separators.
      .transform((v) =>
        typeof v === "string"
          ? Number(v.replace(/[$,\s]/g, "") || Number.NaN)
          : (v ?? DEFAULT_INSTALLMENTS_PESOS),
      )
      .refine(
        (v) => Number.isInteger(v) && v >= MIN_INSTALLMENTS_PESOS && v <= MAX_INSTALLMENTS_PESOS,
        `Meses sin intereses desde: escribe un total en pesos, sin centavos, de ${MIN_INSTALLMENTS_PESOS} a ${MAX_INSTALLMENTS_PESOS.toLocaleString("es-MX")}.`,
      ),
    shippingStandardLabel: text("Envío estándar", "el nombre del envío estándar", 40)
      .optional()
      .transform((v) => v ?? DEFAULT_SHIPPING_RATES.standard.label),
    shippingStandardDays: shippingDays("Envío estándar", daysField(DEFAULT_SHIPPING_RATES.standard)),
    shippingStandardCost: shippingCost("Envío estándar"),
    shippingExpressLabel: text("Envío express", "el nombre del envío express", 40)
      .optional()
      .transform((v) => v ?? DEFAULT_SHIPPING_RATES.express.label),
    shippingExpressDays: shippingDays("Envío express", daysField(DEFAULT_SHIPPING_RATES.express)),
    shippingExpressCost: shippingCost("Envío express"),
    // Empty or 0: standard shipping is never free.
    shippingFreeFrom: pesos(null)
      .refine(
        (v) => v === null || (Number.isInteger(v) && v >= 0 && v <= MAX_FREE_FROM_PESOS),
        `Envío gratis desde: escribe un total en pesos, sin centavos, hasta ${MAX_FREE_FROM_PESOS.toLocaleString("es-MX")}, o déjalo vacío (o 0) para cobrar siempre el envío.`,
      )
      .transform((v) => (v === 0 ? null : v)),
    carriers: z
      .array(carrierSchema)
      .max(MAX_CARRIERS, `Hasta ${MAX_CARRIERS} paqueterías.`)
      .optional()
      .transform((v) => v ?? [])
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((c, i) => {
          const key = c.name.toLowerCase();
          if (seen.has(key))
            ctx.addIssue({ code: "custom", path: [i, "name"], message: `«${c.name}» ya está en la lista.` });
          seen.add(key);
        });
      }),
    legalPrivacy: legalText("Aviso de privacidad"),
    legalShipping: legalText("Envíos"),
    legalReturns: legalText("Cambios y devoluciones"),
    legalTerms: legalText("Términos y condiciones"),
    heroTitle: text("Título de la portada", "el título de la portada", MAX_HERO_TITLE_CHARS),
    heroText: safeText({ label: "Texto de la portada", error: "Escribe el texto de la portada." })
      .min(1, "Escribe el texto de la portada.")
      .max(MAX_HERO_TEXT_CHARS, `Texto de la portada: máximo ${MAX_HERO_TEXT_CHARS} caracteres.`),
    heroImage: safeText({ label: "Imagen de la portada" })
      .refine(isId, "Imagen de la portada: súbela de nuevo.")
      .optional()
      .transform((v) => v ?? null),
    heroImageAlt: safeText({ label: "Qué muestra la imagen" })
      .max(200, "Qué muestra la imagen: máximo 200 caracteres.")
      .optional()
      .transform((v) => v ?? ""),
    brandStory: safeText({
      label: "Historia de la marca",
      multiline: true,
      error: "Escribe la historia de la marca.",
    })
      .min(1, "Escribe la historia de la marca.")
      .max(
        MAX_BRAND_STORY_CHARS,
        `Historia de la marca: máximo ${MAX_BRAND_STORY_CHARS.toLocaleString("es-MX")} caracteres.`,
      ),
    processSteps: z
      .array(processStepSchema, { error: `Escribe los ${PROCESS_STEPS} pasos del proceso.` })
      .length(PROCESS_STEPS, `Escribe los ${PROCESS_STEPS} pasos del proceso.`),
    storyCards: z
      .array(storyCardSchema)
      .max(MAX_STORY_CARDS, `Hasta ${MAX_STORY_CARDS} tarjetas de la historia.`)
      .optional()
      .transform((v) => v ?? [])
      .refine((v) => v.length > 0, "Deja al menos una tarjeta de la historia."),
    timeline: z
      .array(timelineSchema)
      .max(MAX_TIMELINE_ENTRIES, `Hasta ${MAX_TIMELINE_ENTRIES} momentos en la línea del tiempo.`)
      .optional()
      .transform((v) => v ?? [])
      .refine((v) => v.length > 0, "Deja al menos un momento en la línea del tiempo."),
    workshopPairs: z
      .array(workshopPairSchema)
      .max(MAX_WORKSHOP_PAIRS, `Hasta ${MAX_WORKSHOP_PAIRS} pares de fotos.`)
      .optional()
      .transform((v) => v ?? []),
  })
  .strip()
  // A photo is described for those who cannot see it (screen readers, a failed load).
  .refine((v) => v.heroImage === null || v.heroImageAlt !== "", {
    path: ["heroImageAlt"],
    message: "Escribe qué muestra la imagen de la portada.",
  });

// ---- Legal texts: plain text the owner edits ("## " starts a section, "- " a list item). ----

export function legalToText(sections: LegalSection[]): string {
  return sections
    .map((s) =>
      [
        ...(s.heading ? [`## ${s.heading}`] : []),
        ...s.paragraphs,
        ...(s.items?.length ? [s.items.map((i) => `- ${i}`).join("\n")] : []),
      ].join("\n\n"),
    )
    .join("\n\n");
}

export function textToSections(text: string): LegalSection[] {
  const sections: LegalSection[] = [];
  let current: LegalSection | null = null;
  const section = () => {
    if (!current) {
      current = { heading: "", paragraphs: [] };
      sections.push(current);
    }
    return current;
  };
  for (const block of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const lines = block
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.startsWith("## ")) {
        current = { heading: line.slice(3).trim(), paragraphs: [] };
        sections.push(current);
      } else if (/^[-*] /.test(line)) {
        const s = section();
        s.items = [...(s.items ?? []), line.slice(2).trim()];
      } else {
        // A paragraph after a list starts a new (untitled) part, so the order is kept.
        let s = section();
        if (s.items?.length) {
          current = { heading: "", paragraphs: [] };
          sections.push(current);
          s = current;
        }
        // The rest of the block's plain lines are one paragraph.
        const rest: string[] = [line];
        while (i + 1 < lines.length && !/^(## |[-*] )/.test(lines[i + 1] as string))
          rest.push(lines[++i] as string);
        s.paragraphs.push(rest.join(" "));
      }
    }
  }
  return sections;
}

/** The model text of a legal page for these details, as the form shows it. */
export function modelLegalText(field: LegalField, shop: ShopDetails): string {
  return legalToText(legalPage(LEGAL_FIELDS[field], shop).sections);
}

/**
 * A legal page as shoppers read it: the owner's text when there is one, else the model text;
 * either way without the model's notes to the owner in brackets. `model` is for the admin only.
 */
export function legalPageFor(path: string, settings: ShopSettings) {
  if (!isLegalPath(path)) return null;
  const page = legalPage(path, settings.shop);
  const field = LEGAL_FIELD_NAMES.find((f) => LEGAL_FIELDS[f] === path);
  const own = field ? settings.legal[field] : null;
  return { ...page, sections: withoutOwnerNotes(own ? textToSections(own) : page.sections), model: !own };
}

export const LEGAL_LABELS: Record<LegalField, string> = Object.fromEntries(
  LEGAL_FIELD_NAMES.map((f) => [f, LEGAL_LINKS.find((l) => l.path === LEGAL_FIELDS[f])?.label ?? f]),
) as Record<LegalField, string>;

// ---- Defaults, overrides and what the form shows. ----

/** 'Meses sin intereses' until the owner changes them: up to 6 months, from $3,000. */
export const DEFAULT_INSTALLMENTS_PESOS = 3_000;
/** A parcel inside Mexico arrives within a week by the usual carriers' standard service. */
export const DEFAULT_DELIVERY_DAYS = 7;
export const DEFAULT_INSTALLMENT_MONTHS: InstallmentMonths = 6;

/** The settings with nothing stored: the environment's details, the built-in carriers, no limit, model texts. */
export function settingsFromEnvironment(shop: ShopDetails): ShopSettings {
  return {
    shop: { ...shop },
    carriers: DEFAULT_CARRIERS.map((c) => ({ ...c })),
    defaultMaxPerOrder: null,
    legal: { legalPrivacy: null, legalShipping: null, legalReturns: null, legalTerms: null },
    deliveryDays: DEFAULT_DELIVERY_DAYS,
    // Off until the owner has them at the payment provider and says so.
    vouchers: { oxxo: false, spei: false, days: DEFAULT_VOUCHER_DAYS },
    // Off until the owner has the plans at the payment provider and says so.
    installments: {
      enabled: false,
      months: DEFAULT_INSTALLMENT_MONTHS,
      minCents: DEFAULT_INSTALLMENTS_PESOS * 100,
    },
    shippingRates: {
      standard: { ...DEFAULT_SHIPPING_RATES.standard },
      express: { ...DEFAULT_SHIPPING_RATES.express },
      freeFromCents: DEFAULT_SHIPPING_RATES.freeFromCents,
    },
    storefront: {
      heroTitle: null,
      heroText: BRAND.tagline,
      heroImage: null,
      heroImageAlt: "",
      brandStory: BRAND.story,
      processSteps: BRAND.process.map((s) => ({ ...s })),
      storyCards: STORY_CARDS.map((c) => ({
        year: c.year,
        title: c.title,
        text: c.text,
        image: c.image.src,
        imageAlt: c.image.alt,
      })),
      timeline: TIMELINE.map((t) => ({ ...t })),
      workshopPairs: WORKSHOP_BEFORE_AFTER.map((p) => ({
        title: p.title,
        caption: p.caption,
        before: p.before.src,
        beforeAlt: p.before.alt,
        after: p.after.src,
        afterAlt: p.after.alt,
      })),
    },
  };
}

export function applyOverrides(defaults: ShopSettings, overrides: SettingsOverrides): ShopSettings {
  const shop = { ...defaults.shop };
  for (const key of DETAIL_FIELDS) {
    const value = overrides[key];
    if (value !== undefined) (shop as Record<string, string | null>)[key] = value;
  }
  return {
    shop,
    carriers: overrides.carriers ?? defaults.carriers,
    defaultMaxPerOrder:
      overrides.defaultMaxPerOrder !== undefined ? overrides.defaultMaxPerOrder : defaults.defaultMaxPerOrder,
    legal: Object.fromEntries(
      LEGAL_FIELD_NAMES.map((f) => [f, overrides[f] ?? defaults.legal[f]]),
    ) as ShopSettings["legal"],
    storefront: Object.fromEntries(
      STORY_FIELDS.map((f) => [f, overrides[f] !== undefined ? overrides[f] : defaults.storefront[f]]),
    ) as unknown as StorefrontStory,
    deliveryDays: overrides.deliveryDays ?? defaults.deliveryDays,
    vouchers: {
      oxxo: overrides.oxxoEnabled ?? defaults.vouchers.oxxo,
      spei: overrides.speiEnabled ?? defaults.vouchers.spei,
      days: overrides.voucherDays ?? defaults.vouchers.days,
    },
    installments: {
      enabled: overrides.installmentsEnabled ?? defaults.installments.enabled,
      months: overrides.installmentsMonths ?? defaults.installments.months,
      minCents:
        overrides.installmentsMinimum !== undefined
          ? overrides.installmentsMinimum * 100
          : defaults.installments.minCents,
    },
    shippingRates: shippingRatesOf(defaults.shippingRates, overrides),
  };
}

/** The shipping rates with the owner's overrides of single fields. */
function shippingRatesOf(defaults: ShippingRates, overrides: SettingsOverrides): ShippingRates {
  const rate = (base: ShippingRates["standard"], label?: string, days?: string, cost?: number) => ({
    label: label ?? base.label,
    cents: cost !== undefined ? cost * 100 : base.cents,
    ...((days !== undefined ? parseDays(days) : null) ?? { minDays: base.minDays, maxDays: base.maxDays }),
  });
  return {
    standard: rate(
      defaults.standard,
      overrides.shippingStandardLabel,
      overrides.shippingStandardDays,
      overrides.shippingStandardCost,
    ),
    express: rate(
      defaults.express,
      overrides.shippingExpressLabel,
      overrides.shippingExpressDays,
      overrides.shippingExpressCost,
    ),
    freeFromCents:
      overrides.shippingFreeFrom !== undefined
        ? overrides.shippingFreeFrom === null
          ? null
          : overrides.shippingFreeFrom * 100
        : defaults.freeFromCents,
  };
}

/** The form's values for these settings (a legal page without its own text shows the model text). */
export function formValues(settings: ShopSettings): SettingsValues {
  return {
    ...settings.shop,
    defaultMaxPerOrder: settings.defaultMaxPerOrder,
    carriers: settings.carriers,
    ...(Object.fromEntries(
      LEGAL_FIELD_NAMES.map((f) => [f, settings.legal[f] ?? modelLegalText(f, settings.shop)]),
    ) as Record<LegalField, string>),
    ...settings.storefront,
    heroTitle: settings.storefront.heroTitle ?? settings.shop.name,
    deliveryDays: settings.deliveryDays,
    oxxoEnabled: settings.vouchers.oxxo,
    speiEnabled: settings.vouchers.spei,
    voucherDays: settings.vouchers.days,
    installmentsEnabled: settings.installments.enabled,
    installmentsMonths: settings.installments.months,
    installmentsMinimum: Math.round(settings.installments.minCents / 100),
    shippingStandardLabel: settings.shippingRates.standard.label,
    shippingStandardDays: daysField(settings.shippingRates.standard),
    shippingStandardCost: Math.round(settings.shippingRates.standard.cents / 100),
    shippingExpressLabel: settings.shippingRates.express.label,
    shippingExpressDays: daysField(settings.shippingRates.express),
    shippingExpressCost: Math.round(settings.shippingRates.express.cents / 100),
    shippingFreeFrom:
      settings.shippingRates.freeFromCents === null
        ? null
        : Math.round(settings.shippingRates.freeFromCents / 100),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** FNV-1a of a value's JSON, in base 36: enough to tell a field the owner changed from one she did not. */
function digest(value: unknown): string {
  let hash = 0x811c9dc5;
  for (const c of JSON.stringify(value) ?? "") hash = Math.imul(hash ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return hash.toString(36);
}

/** Each field's digest, as a form shows them (sent back with it: `keepUntouched`). */
export function fieldDigests(values: SettingsValues): Record<string, string> {
  return Object.fromEntries(SETTINGS_FIELDS.map((f) => [f, digest(values[f])]));
}

/**
 * A save from a form the owner opened a while ago: the fields she did not change (their value
 * is what the form showed) take the stored value, so a save from one tab never undoes what
 * another tab saved meanwhile in other fields. Without what the form showed, every field is hers.
 */
export function keepUntouched(
  submitted: SettingsValues,
  shown: Record<string, string> | null,
  current: SettingsValues,
): SettingsValues {
  if (!shown) return submitted;
  const merged = { ...submitted } as Record<SettingsField, unknown>;
  for (const field of SETTINGS_FIELDS) {
    if (shown[field] !== undefined && shown[field] === digest(submitted[field]))
      merged[field] = current[field];
  }
  return merged as SettingsValues;
}

/**
 * What to store after a save: each field that differs from the environment's value. A legal text
 * equal to the model text (for the new details or the ones the form showed) stays the model
 * text, so renaming the shop renames it there too.
 */
export function overridesFrom(
  defaults: ShopSettings,
  values: SettingsValues,
  shown: ShopDetails,
): SettingsOverrides {
  const base = formValues(defaults);
  const out: SettingsOverrides = {};
  for (const key of SETTINGS_FIELDS) {
    const value = values[key];
    if (key in LEGAL_FIELDS) {
      const field = key as LegalField;
      const text = (value as string).replace(/\r\n?/g, "\n").trim();
      const models = [modelLegalText(field, values), modelLegalText(field, shown)];
      if (!models.includes(text)) out[field] = text;
      continue;
    }
    // The shop's name as the hero's title keeps following the name.
    if (key === "heroTitle") {
      if (value !== values.name && value !== shown.name) out.heroTitle = value as string;
      continue;
    }
    if (!same(value, base[key])) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * Stored overrides read back: each field checked again on its own, and one that no longer passes
 * (a rule made stricter since) falls back to the environment instead of breaking the shop.
 */
export function parseOverrides(json: string): SettingsOverrides {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof raw !== "object" || raw === null) return {};
  const out: Record<string, unknown> = {};
  const shape = settingsSchema.shape;
  for (const [key, value] of Object.entries(raw)) {
    if (!isSettingsField(key)) continue;
    const input =
      key === "defaultMaxPerOrder" && typeof value === "number"
        ? String(value)
        : key === "carriers" && Array.isArray(value)
          ? value.map((c: { name?: unknown; trackingUrl?: unknown }) => ({
              name: c?.name,
              trackingUrl: c?.trackingUrl ?? undefined,
            }))
          : Array.isArray(value)
            ? value.map((row: unknown) =>
                typeof row === "object" && row !== null
                  ? Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v ?? undefined]))
                  : row,
              )
            : (value ?? undefined);
    const parsed = shape[key].safeParse(input);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as SettingsOverrides;
}

// ---- The shipping policy in one sentence (the cart drawer says it under the subtotal). ----

const SHIPPING_SUMMARY_CHARS = 140;
const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * What shipping costs, as Configuración's 'Envíos' page says it (the owner's text, or the model
 * text): the first sentence of its part about the cost ('Costo', 'Costos', 'Costo de envío'…),
 * or of the page when no part is about it. Notes in brackets (the model's hints to the owner) are
 * left out, and a long sentence is cut at a word. Null when the page says nothing.
 */
export function shippingSummary(settings: ShopSettings): string | null {
  const page = legalPageFor(LEGAL_FIELDS.legalShipping, settings);
  if (!page) return null;
  const about = page.sections.find((s) => fold(s.heading).includes("costo") && s.paragraphs.length > 0);
  const paragraphs = (about ?? page.sections.find((s) => s.paragraphs.length > 0))?.paragraphs ?? [];
  for (const paragraph of paragraphs) {
    const plain = paragraph
      .replace(/\[[^\]]*\]/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    const sentence = plain.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? plain;
    if (sentence === "") continue;
    if (sentence.length <= SHIPPING_SUMMARY_CHARS) return sentence;
    const cut = sentence.slice(0, SHIPPING_SUMMARY_CHARS - 1);
    return `${cut.slice(0, cut.lastIndexOf(" ")).replace(/[\s,;:]+$/, "")}…`;
  }
  return null;
}
