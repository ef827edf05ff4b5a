import { describe, expect, it } from "vitest";
import { embedVideoUrl } from "./urls";

describe("embedVideoUrl", () => {
  it("turns the video page addresses owners copy into the player a page can frame", () => {
    const player = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ";
    for (const page of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    ])
      expect(embedVideoUrl(page), page).toBe(player);
    expect(embedVideoUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871");
  });

  it("keeps an unlisted Vimeo video's private hash, a channel's video, and where a link starts", () => {
    const cases: [string, string][] = [
      ["https://vimeo.com/76979871/0a1b2c3d4e", "https://player.vimeo.com/video/76979871?h=0a1b2c3d4e"],
      ["https://vimeo.com/channels/staffpicks/76979871", "https://player.vimeo.com/video/76979871"],
      ["https://vimeo.com/groups/joyeria/videos/76979871", "https://player.vimeo.com/video/76979871"],
      ["https://vimeo.com/76979871#t=1m5s", "https://player.vimeo.com/video/76979871#t=65s"],
      [
        "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
        "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42",
      ],
      ["https://youtu.be/dQw4w9WgXcQ?t=90", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=90"],
      [
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1h2m3s",
        "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=3723",
      ],
      // An odd start is left out, not passed on.
      ["https://youtu.be/dQw4w9WgXcQ?t=<b>", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ];
    for (const [page, player] of cases) expect(embedVideoUrl(page), page).toBe(player);
  });

  it("keeps players, video files and anything it does not know as they are", () => {
    for (const kept of [
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
      "https://player.vimeo.com/video/76979871",
      "https://cdn.tutienda.mx/taller.mp4",
      "https://www.youtube.com/watch?v=<script>",
      "https://vimeo.com/channels/staffpicks",
      "no es una dirección",
    ])
      expect(embedVideoUrl(kept), kept).toBe(kept);
  });
});
