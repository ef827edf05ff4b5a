/*
 * Shipping as the owner charges it (issue 26, decision 43): a standard and an express rate, and
 * free standard shipping from a total of the pieces. A small, plain module the browser bundles
 * (the drawer), apart from Configuración's schema.
 */

export const SHIPPING_METHODS = ["estandar", "express"] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];

/** One rate as the owner set it. */
export interface ShippingRate {
  /** 'Envío estándar' */
  label: string;
  cents: number;
  /** Business days to deliver, from the fewest to the most (equal for one number). */
  minDays: number;
  maxDays: number;
}

/** Both rates, and the pieces' total from which standard shipping is free (null: never). */
export interface ShippingRates {
  standard: ShippingRate;
  express: ShippingRate;
  freeFromCents: number | null;
}

/** A rate offered to one order: what the payment page lists. */
export interface ShippingOption extends ShippingRate {
  method: ShippingMethod;
  /** 'Envío estándar (3 a 7 días hábiles)': how the order records it. */
  text: string;
}

/** The shipping an order was paid with, as it records it; null method: the provider did not say which. */
export interface ShippingChoice {
  method: ShippingMethod | null;
  label: string;
  cents: number;
}

/** The most a rate may cost, in whole pesos, and the most business days it may take. */
export const MAX_SHIPPING_PESOS = 10_000;
export const MAX_SHIPPING_DAYS = 30;
export const MAX_FREE_FROM_PESOS = 1_000_000;

export function isShippingMethod(value: unknown): value is ShippingMethod {
  return (SHIPPING_METHODS as readonly unknown[]).includes(value);
}

/** '3 a 7 días hábiles', '2 días hábiles', '1 día hábil'. */
export function daysText(minDays: number, maxDays: number): string {
  if (minDays === maxDays) return minDays === 1 ? "1 día hábil" : `${minDays} días hábiles`;
  return `${minDays} a ${maxDays} días hábiles`;
}

/** 'Envío estándar (3 a 7 días hábiles)' */
export function rateText(rate: ShippingRate): string {
  return `${rate.label} (${daysText(rate.minDays, rate.maxDays)})`;
}

/**
 * The business days as the owner writes them ('3 a 7', '3-7', '5', '1 a 2 días hábiles'), or null
 * when they say no range of 1 to MAX_SHIPPING_DAYS days.
 */
export function parseDays(text: string): { minDays: number; maxDays: number } | null {
  const match = /^(\d{1,2})(?:\s*(?:a|-|–|al)\s*(\d{1,2}))?(?:\s*d[ií]as?(?:\s*h[aá]bil(?:es)?)?)?$/i.exec(
    text.trim(),
  );
  if (!match) return null;
  const minDays = Number(match[1]);
  const maxDays = Number(match[2] ?? match[1]);
  if (minDays < 1 || maxDays < minDays || maxDays > MAX_SHIPPING_DAYS) return null;
  return { minDays, maxDays };
}

/** The days as the form shows them: '3 a 7', or '5'. */
export function daysField(rate: Pick<ShippingRate, "minDays" | "maxDays">): string {
  return rate.minDays === rate.maxDays ? String(rate.minDays) : `${rate.minDays} a ${rate.maxDays}`;
}

/** Standard shipping is free for these pieces. */
export function freeShipping(rates: Pick<ShippingRates, "freeFromCents">, piecesCents: number): boolean {
  return rates.freeFromCents !== null && piecesCents >= rates.freeFromCents;
}

/** What an order of these pieces is offered: standard (free from the owner's total), then express. */
export function shippingOptions(rates: ShippingRates, piecesCents: number): ShippingOption[] {
  const standard = { ...rates.standard, cents: freeShipping(rates, piecesCents) ? 0 : rates.standard.cents };
  return [
    { method: "estandar", ...standard, text: rateText(standard) },
    { method: "express", ...rates.express, text: rateText(rates.express) },
  ];
}

/** What the cart drawer needs to say the shipping line: the standard rate and the free threshold. */
export interface ShippingOffer {
  /** 'Envío estándar (3 a 7 días hábiles)' */
  text: string;
  cents: number;
  freeFromCents: number | null;
}

export function shippingOffer(rates: ShippingRates): ShippingOffer {
  return { text: rateText(rates.standard), cents: rates.standard.cents, freeFromCents: rates.freeFromCents };
}

/**
 * The drawer's shipping line for a subtotal: what standard shipping costs (0: free), and how much
 * more reaches free shipping (null: already free, or the owner never gives it free).
 */
export function shippingLine(
  offer: Pick<ShippingOffer, "cents" | "freeFromCents">,
  subtotalCents: number,
): { cents: number; missingCents: number | null } {
  const free = offer.cents === 0 || freeShipping(offer, subtotalCents);
  return {
    cents: free ? 0 : offer.cents,
    missingCents: free || offer.freeFromCents === null ? null : offer.freeFromCents - subtotalCents,
  };
}

/**
 * The shipping to record for a payment: what its event charged (the amount checked against the
 * order), named as the provider's fuller answer names it when that answer charged the same.
 */
export function chosenShipping(
  charged: ShippingChoice | null | undefined,
  named: ShippingChoice | null | undefined,
): ShippingChoice | null {
  if (!charged) return null;
  return named && named.cents === charged.cents ? named : charged;
}
