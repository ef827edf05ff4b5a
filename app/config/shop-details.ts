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
