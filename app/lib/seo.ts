import type { MetaDescriptor } from "react-router";

export interface PageSeo {
  /** The page's own title; the shop name is appended. */
  title: string;
  description: string;
  /** Absolute canonical URL of the page. */
  url: string;
  /** Absolute URL of the link-preview image. */
  image?: string | null;
  type?: "website" | "product";
  shopName: string;
}

/** Title, description, canonical link and Open Graph tags for a public page. */
export function pageMeta(seo: PageSeo): MetaDescriptor[] {
  const title = seo.title === seo.shopName ? seo.title : `${seo.title} · ${seo.shopName}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: seo.description },
    { tagName: "link", rel: "canonical", href: seo.url },
    { property: "og:site_name", content: seo.shopName },
    { property: "og:locale", content: "es_MX" },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: seo.url },
    { name: "twitter:card", content: seo.image ? "summary_large_image" : "summary" },
  ];
  if (seo.image) tags.push({ property: "og:image", content: seo.image });
  return tags;
}
