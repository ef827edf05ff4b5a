import { HOLD_MINUTES } from "~/config/ceilings";
import { OPENING_DEFAULTS } from "~/config/opening";
import type { OptionFormValues } from "./option-input";

/*
 * The drop form's values as the page holds them (strings, as typed) and the empty ones a new
 * form starts from. The server reads a submitted form with `dropInput` (drop-input.ts).
 */

/** A photo or video already uploaded, as the form shows it. */
export interface MediaValue {
  id: string;
  url: string;
  /** What the photo shows (for screen readers); empty for a video. */
  alt: string;
}

/** One product on the form, as typed (strings), with what the page shows beside it. */
export interface ProductFormValues extends OptionFormValues {
  id: string;
  name: string;
  price: string;
  stock: string;
  /** The stock the form showed when it opened (edit): the save applies the difference. */
  stockLoaded: string;
  /** Pieces held by checkouts waiting for payment when the form opened. */
  held: number;
  /** Confirmed 'Avísame si vuelve' requests waiting for it (no size) when the form opened. */
  waiting?: number;
  categoria: string;
  material: string;
  /** 'Quilates': "", "10", "14" or "18". */
  karat: string;
  /** 'Peso (g)': "2.35", or "" when not said. */
  weight: string;
  /** 'Piedras': "" for none. */
  stones: string;
  /** 'Edición limitada (piezas)': "" for a piece that is not numbered. */
  edition: string;
  description: string;
  image: MediaValue | null;
  extras: MediaValue[];
}

export interface DropFormValues {
  id: string;
  /** Changes with every save: a form opened on an older version must be opened again. */
  version: string;
  name: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  /** 'Máximo N por persona': empty for no limit. */
  maxPerOrder: string;
  holdMinutes: string;
  lotterySeconds: string;
  openingMinutes: string;
  openingHoldMinutes: string;
  openingHoldsPerAddress: string;
  cardOnlyHours: string;
  smallDescription: string;
  fullDescription: string;
  status: string;
  image: MediaValue | null;
  video: MediaValue | null;
  products: ProductFormValues[];
}

export function emptyProduct(): ProductFormValues {
  return {
    id: "",
    name: "",
    price: "",
    stock: "",
    stockLoaded: "",
    held: 0,
    categoria: "",
    material: "",
    karat: "",
    weight: "",
    stones: "",
    edition: "",
    optionName: "",
    options: [],
    description: "",
    image: null,
    extras: [],
  };
}

/**
 * The create form: a new drop's id (its photos' folder) and nothing typed yet but the shop's
 * default 'Máximo por persona' (Configuración).
 */
export function emptyDrop(id: string, defaults: { maxPerOrder?: number | null } = {}): DropFormValues {
  return {
    id,
    version: "",
    name: "",
    startDate: "",
    startTime: "10:00",
    endDate: "",
    endTime: "22:00",
    maxPerOrder: defaults.maxPerOrder ? String(defaults.maxPerOrder) : "",
    holdMinutes: String(HOLD_MINUTES),
    lotterySeconds: String(OPENING_DEFAULTS.lotterySeconds),
    openingMinutes: String(OPENING_DEFAULTS.openingMinutes),
    openingHoldMinutes: String(OPENING_DEFAULTS.openingHoldMinutes),
    openingHoldsPerAddress: String(OPENING_DEFAULTS.openingHoldsPerAddress),
    cardOnlyHours: String(OPENING_DEFAULTS.cardOnlyHours),
    smallDescription: "",
    fullDescription: "",
    status: "proximamente",
    image: null,
    video: null,
    products: [emptyProduct()],
  };
}
