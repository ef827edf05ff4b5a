/** Makes a path (e.g. a /media URL) absolute, for canonical links, previews and the sitemap. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}

/**
 * A video page's address as its player's, the one a page can frame: a YouTube watch, short or
 * youtu.be link becomes its privacy-enhanced embed, a Vimeo page (an unlisted one's private hash,
 * a channel's video) its player, each starting where the link did (`t=`). Those sites refuse to
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
  if (youtube) {
    const start = startSeconds(url.searchParams.get("t") ?? url.searchParams.get("start"));
    return `https://www.youtube-nocookie.com/embed/${youtube}${start ? `?start=${start}` : ""}`;
  }
  // vimeo.com/76979871, /76979871/<hash> (unlisted), /channels/<name>/76979871, /groups/<name>/videos/76979871
  const vimeo =
    host === "vimeo.com"
      ? /^(?:\/channels\/[\w-]+|\/groups\/[\w-]+\/videos)?\/(\d{5,12})(?:\/([\da-f]{6,20}))?\/?$/.exec(
          url.pathname,
        )
      : null;
  if (vimeo) {
    const hash = vimeo[2] ?? url.searchParams.get("h");
    const start = startSeconds(new URLSearchParams(url.hash.slice(1)).get("t"));
    const query = hash && /^[\da-f]{6,20}$/.test(hash) ? `?h=${hash}` : "";
    return `https://player.vimeo.com/video/${vimeo[1]}${query}${start ? `#t=${start}s` : ""}`;
  }
  return address;
}

/** A link's start time (`90`, `90s`, `1m30s`, `1h2m3s`) in whole seconds; null when none or odd. */
function startSeconds(value: string | null): number | null {
  const parts = value ? /^(?:(\d{1,2})h)?(?:(\d{1,3})m)?(?:(\d{1,5})s?)?$/.exec(value) : null;
  if (!parts) return null;
  const seconds = Number(parts[1] ?? 0) * 3600 + Number(parts[2] ?? 0) * 60 + Number(parts[3] ?? 0);
  return seconds > 0 ? seconds : null;
}
