/** Makes a path (e.g. a /media URL) absolute, for canonical links, previews and the sitemap. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}

/**
 * A video page's address as its player's, the one a page can frame: a YouTube watch, short or
 * youtu.be link becomes its privacy-enhanced embed, a Vimeo page its player. Those sites refuse to
 * be framed on their own pages ("refused to connect"), and owners copy the address they see. Any
 * other address (already a player, a video file) is kept as it is.
 */
export function embedVideoUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return address;
  }
  const host = url.hostname.replace(/^(www|m)\./, "");
  const id = (value: string | null | undefined) => (value && /^[\w-]{6,20}$/.test(value) ? value : null);
  let youtube: string | null = null;
  if (host === "youtube.com" && url.pathname === "/watch") youtube = id(url.searchParams.get("v"));
  else if (host === "youtube.com" && /^\/(shorts|live)\//.test(url.pathname))
    youtube = id(url.pathname.split("/")[2]);
  else if (host === "youtu.be") youtube = id(url.pathname.slice(1));
  if (youtube) return `https://www.youtube-nocookie.com/embed/${youtube}`;
  const vimeo = host === "vimeo.com" ? /^\/(\d{5,12})\/?$/.exec(url.pathname)?.[1] : undefined;
  if (vimeo) return `https://player.vimeo.com/video/${vimeo}`;
  return address;
}
