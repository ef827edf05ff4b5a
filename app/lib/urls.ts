/** Makes a path (e.g. a /media URL) absolute, for canonical links, previews and the sitemap. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}
