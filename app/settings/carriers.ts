/**
 * Mexico's common parcel carriers and where a tracking number can be followed. `{guia}` stands for
 * the tracking number. 'Otra' takes any name and has no link. Kept as data so the settings section
 * can make the list editable.
 */
export interface Carrier {
  name: string;
  /** A web address with `{guia}` where the tracking number goes; null when there is no link. */
  trackingUrl: string | null;
}

export const OTHER_CARRIER = "Otra";

/** Where the tracking number goes in a carrier's address. */
export const GUIA = "{guia}";

export const DEFAULT_CARRIERS: readonly Carrier[] = [
  { name: "Estafeta", trackingUrl: "https://www.estafeta.com/rastrear-envio?guias={guia}" },
  { name: "DHL Express", trackingUrl: "https://www.dhl.com/mx-es/home/rastreo.html?tracking-id={guia}" },
  { name: "FedEx", trackingUrl: "https://www.fedex.com/fedextrack/?trknbr={guia}" },
  { name: "Redpack", trackingUrl: "https://www.redpack.com.mx/es/rastreo/?guias={guia}" },
  { name: "Paquetexpress", trackingUrl: "https://www.paquetexpress.com.mx/rastreo/{guia}" },
  { name: "99minutos", trackingUrl: "https://tracking.99minutos.com/search/{guia}" },
  { name: "J&T Express", trackingUrl: "https://www.jtexpress.mx/trajectoryQuery?waybillNo={guia}" },
];

/** The tracking page of a shipment, when its carrier is a known one. */
export function trackingLink(
  carrier: string | null | undefined,
  trackingNumber: string | null | undefined,
  carriers: readonly Carrier[] = DEFAULT_CARRIERS,
): string | null {
  if (!carrier || !trackingNumber) return null;
  const known = carriers.find((c) => c.name.toLowerCase() === carrier.trim().toLowerCase());
  if (!known?.trackingUrl) return null;
  return known.trackingUrl.replaceAll(GUIA, encodeURIComponent(trackingNumber.trim()));
}

/** The order's tracking link from the shop's current carriers (Configuración may have changed them). */
export function withTrackingLink<
  T extends { carrier: string | null; trackingNumber: string | null; trackingUrl: string | null },
>(order: T, carriers: readonly Carrier[]): T {
  return { ...order, trackingUrl: trackingLink(order.carrier, order.trackingNumber, carriers) };
}
