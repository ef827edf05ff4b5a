/** The shop's public details: everything here may reach the browser. */
export interface ShopDetails {
  name: string;
  email: string;
  whatsapp: string;
  instagramUrl: string;
  agencyName: string;
  agencyUrl: string;
  processVideoUrl: string | null;
}

/**
 * The demo shop's details: what the shop shows until the owner sets her own (in the environment
 * or in Configuración). The set-up checklist names each one still in force.
 */
export const DEMO_SHOP_DETAILS = {
  name: "Oro de Luna",
  email: "hola@orodeluna.mx",
  whatsapp: "5215512345678",
  instagramUrl: "https://www.instagram.com/orodeluna.mx",
  agencyName: "Taller Digital",
  agencyUrl: "https://example.com",
} as const satisfies Omit<ShopDetails, "processVideoUrl">;
