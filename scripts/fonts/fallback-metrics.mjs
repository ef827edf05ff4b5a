// Prints the @font-face descriptors of the metric-adjusted fallback faces in app/app.css: the
// local font a browser shows while the web font loads is scaled and given the web font's ascent,
// descent and line gap, so the swap moves nothing. Measured by the browser itself (Chromium
// reads the woff2 files; its canvas and layout give the metrics it will use), not from tables.
//   node scripts/fonts/fallback-metrics.mjs
import fs from "node:fs";
import { chromium } from "@playwright/test";

const PAIRS = [
  {
    web: "@fontsource-variable/cormorant-garamond/files/cormorant-garamond-latin-wght-normal.woff2",
    family: "Cormorant Garamond Variable",
    weight: 400,
    fallback: "Liberation Serif", // metric twin of Times New Roman
  },
  {
    web: "@fontsource-variable/jost/files/jost-latin-wght-normal.woff2",
    family: "Jost Variable",
    weight: 400,
    fallback: "Liberation Sans", // metric twin of Arial
  },
];
// Spanish shop copy: the average advance of the letters shoppers read, not of 'abc…z'.
const SAMPLE =
  "Joyería artesanal en oro hecha a mano en Oaxaca. Colección de temporada: anillos, collares, aretes y pulseras. ¡Quedan pocas piezas! Envíos a todo México.";

// The whole browser, as shoppers have it, not the tests' headless shell (decision 49): the shell
// measured these faces 0.1–0.3 % apart from it.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage();
for (const pair of PAIRS) {
  const file = fs.readFileSync(new URL(`../../node_modules/${pair.web}`, import.meta.url));
  const result = await page.evaluate(
    async ({ data, family, weight, fallback, sample }) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const face = new FontFace(family, bytes, { weight: "100 900" });
      document.fonts.add(await face.load());
      const ctx = document.createElement("canvas").getContext("2d");
      const measure = (font) => {
        ctx.font = `${weight} 100px "${font}"`;
        const m = ctx.measureText(sample);
        const div = document.createElement("div");
        div.style.cssText = `font: ${weight} 100px/normal "${font}"; position: absolute; white-space: nowrap`;
        div.textContent = "Hg";
        document.body.append(div);
        const height = div.getBoundingClientRect().height;
        div.remove();
        return {
          width: m.width,
          ascent: m.fontBoundingBoxAscent,
          descent: m.fontBoundingBoxDescent,
          lineGap: height - m.fontBoundingBoxAscent - m.fontBoundingBoxDescent,
        };
      };
      return { web: measure(family), local: measure(fallback) };
    },
    { data: file.toString("base64"), ...pair, sample: SAMPLE },
  );
  const sizeAdjust = result.web.width / result.local.width;
  // Overrides are scaled by size-adjust too: divide it out.
  const pct = (px) => `${((px / 100 / sizeAdjust) * 100).toFixed(2)}%`;
  console.log(`/* ${pair.family} over ${pair.fallback} */`);
  console.log(`size-adjust: ${(sizeAdjust * 100).toFixed(2)}%;`);
  console.log(`ascent-override: ${pct(result.web.ascent)};`);
  console.log(`descent-override: ${pct(result.web.descent)};`);
  console.log(`line-gap-override: ${pct(Math.max(0, result.web.lineGap))};\n`);
}
await browser.close();
