import { describe, expect, it } from "vitest";
import { embedVideoUrl } from "./urls";

describe("embedVideoUrl", () => {
  it("turns the video page addresses owners copy into the player a page can frame", () => {
    const player = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ";
    for (const page of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ?si=abc",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    ])
      expect(embedVideoUrl(page), page).toBe(player);
    expect(embedVideoUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871");
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
