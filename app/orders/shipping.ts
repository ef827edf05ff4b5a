/** Where a paid order is sent. */
export interface ShippingAddress {
  name: string;
  phone: string;
  line1: string;
  /** Colonia (and interior number, references). */
  line2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

/** The address as it is written on a parcel, one line each. */
export function addressLines(a: ShippingAddress): string[] {
  return [
    a.name,
    a.line1,
    a.line2,
    `${a.postalCode} ${a.city}, ${a.state}`.trim(),
    a.country === "MX" ? "México" : a.country,
    a.phone ? `Tel. ${a.phone}` : "",
  ].filter((line) => line.trim() !== "" && line.trim() !== ",");
}

/** The address as the orders table stores it (its ship_* columns). */
export function addressColumns(a: ShippingAddress) {
  return {
    ship_name: a.name,
    ship_phone: a.phone,
    ship_line1: a.line1,
    ship_line2: a.line2,
    ship_city: a.city,
    ship_state: a.state,
    ship_postal_code: a.postalCode,
    ship_country: a.country,
  };
}
