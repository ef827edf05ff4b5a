// Deterministic SVG illustrations of gold jewellery, for the demo catalogue.
//
// Pure string generation: no DOM, no Node APIs, no randomness (a small seeded PRNG instead), so the same
// options always give the same SVG. Only features librsvg renders well are used: linear and radial
// gradients, paths, circles, ellipses, clip paths, <use> and Gaussian-blur based shadows. No text, no
// images, no external fonts.

import type { Categoria, Material } from "~/db/taxonomy";

export interface JewelArtOptions {
  categoria: Categoria;
  material: Material;
  /** 0-based variant so several products of the same category look different (shape, stones, chain style, angle). */
  variant: number;
  /** Which view: 0 = main product shot, 1..4 = extra shots (closer detail, different angle, worn-on-a-neutral-form silhouette, flat lay). */
  view: number;
}

export type DropCoverPalette = "arena" | "salvia" | "terracota" | "perla";

// ---------------------------------------------------------------------------------------------------------
// Small helpers

/** Number formatting: one decimal, no "-0". */
function f(x: number): string {
  const r = Math.round(x * 10) / 10;
  return r === 0 ? "0" : String(r);
}

function pick<T>(arr: readonly T[], i: number): T {
  const n = arr.length;
  return arr[((Math.floor(i) % n) + n) % n] as T;
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** mulberry32: tiny deterministic PRNG returning floats in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rad = (deg: number): number => (deg * Math.PI) / 180;

/** A full circle as path data (two arcs), usable with fill-rule="evenodd" to punch holes. */
function circ(cx: number, cy: number, r: number): string {
  return `M${f(cx - r)} ${f(cy)}a${f(r)} ${f(r)} 0 1 0 ${f(2 * r)} 0a${f(r)} ${f(r)} 0 1 0 ${f(-2 * r)} 0Z`;
}

function ell(cx: number, cy: number, rx: number, ry: number): string {
  return `M${f(cx - rx)} ${f(cy)}a${f(rx)} ${f(ry)} 0 1 0 ${f(2 * rx)} 0a${f(rx)} ${f(ry)} 0 1 0 ${f(-2 * rx)} 0Z`;
}

/** Elliptical arc from angle a0 to a1 (degrees, SVG orientation: 90 = down). */
function arc(cx: number, cy: number, rx: number, ry: number, a0: number, a1: number): string {
  const x0 = cx + rx * Math.cos(rad(a0));
  const y0 = cy + ry * Math.sin(rad(a0));
  const x1 = cx + rx * Math.cos(rad(a1));
  const y1 = cy + ry * Math.sin(rad(a1));
  const large = Math.abs(a1 - a0) > 180 ? 1 : 0;
  const sweep = a1 > a0 ? 1 : 0;
  return `M${f(x0)} ${f(y0)}A${f(rx)} ${f(ry)} 0 ${large} ${sweep} ${f(x1)} ${f(y1)}`;
}

function stops(list: readonly (readonly [number, string])[]): string {
  return list.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join("");
}

const g = (transform: string, body: string, extra = ""): string =>
  `<g transform="${transform}"${extra}>${body}</g>`;

// ---------------------------------------------------------------------------------------------------------
// Metals, gems and shared defs

interface Tones {
  shadow: string;
  dark: string;
  mid: string;
  light: string;
  bright: string;
  spec: string;
}

const TONES: Record<Material, Tones> = {
  "Oro amarillo": {
    shadow: "#6e4309",
    dark: "#a06a16",
    mid: "#cf9a32",
    light: "#ecc45a",
    bright: "#f9e19a",
    spec: "#fffae6",
  },
  "Oro rosa": {
    shadow: "#6f3a2e",
    dark: "#a3604c",
    mid: "#cb8a72",
    light: "#e6ad95",
    bright: "#f6d3c3",
    spec: "#fff5ef",
  },
  "Oro blanco": {
    shadow: "#5f6168",
    dark: "#8d9097",
    mid: "#b7bac1",
    light: "#d8dade",
    bright: "#eff0f2",
    spec: "#ffffff",
  },
};

const METAL_KEY: Record<Material, string> = { "Oro amarillo": "ma", "Oro rosa": "mr", "Oro blanco": "mb" };

interface Metal {
  key: string;
  c: Tones;
  /** diagonal banded metal, the main surface */
  a: string;
  /** darker, for inner / far surfaces */
  b: string;
  /** horizontal cylinder shading (walls of bands, bars) */
  h: string;
  /** vertical shading */
  v: string;
  /** radial sphere shading (beads, balls, domes) */
  r: string;
}

function metal(mat: Material): Metal {
  const key = METAL_KEY[mat];
  return {
    key,
    c: TONES[mat],
    a: `url(#${key}a)`,
    b: `url(#${key}b)`,
    h: `url(#${key}h)`,
    v: `url(#${key}v)`,
    r: `url(#${key}r)`,
  };
}

function metalDefs(mat: Material): string {
  const k = METAL_KEY[mat];
  const c = TONES[mat];
  return (
    `<linearGradient id="${k}a" x1="0" y1="0" x2="1" y2="1">${stops([
      [0, c.dark],
      [0.16, c.mid],
      [0.3, c.bright],
      [0.37, c.spec],
      [0.45, c.light],
      [0.6, c.mid],
      [0.74, c.dark],
      [0.87, c.light],
      [1, c.mid],
    ])}</linearGradient>` +
    `<linearGradient id="${k}b" x1="1" y1="0" x2="0" y2="1">${stops([
      [0, c.shadow],
      [0.35, c.dark],
      [0.65, c.mid],
      [0.82, c.light],
      [1, c.dark],
    ])}</linearGradient>` +
    `<linearGradient id="${k}h" x1="0" y1="0" x2="1" y2="0">${stops([
      [0, c.shadow],
      [0.1, c.dark],
      [0.28, c.mid],
      [0.4, c.bright],
      [0.47, c.spec],
      [0.56, c.light],
      [0.76, c.mid],
      [0.91, c.dark],
      [1, c.shadow],
    ])}</linearGradient>` +
    `<linearGradient id="${k}v" x1="0" y1="0" x2="0" y2="1">${stops([
      [0, c.bright],
      [0.3, c.light],
      [0.6, c.mid],
      [0.85, c.dark],
      [1, c.shadow],
    ])}</linearGradient>` +
    `<radialGradient id="${k}r" cx=".5" cy=".5" r=".6" fx=".34" fy=".3">${stops([
      [0, c.spec],
      [0.18, c.bright],
      [0.45, c.light],
      [0.72, c.mid],
      [0.9, c.dark],
      [1, c.shadow],
    ])}</radialGradient>`
  );
}

const SHARED_DEFS =
  `<linearGradient id="gd" x1="0" y1="0" x2="1" y2="1">${stops([
    [0, "#ffffff"],
    [0.3, "#e6eef5"],
    [0.5, "#b8c8d6"],
    [0.7, "#f5f9fc"],
    [1, "#93a8ba"],
  ])}</linearGradient>` +
  `<linearGradient id="ge" x1="0" y1="0" x2="1" y2="1">${stops([
    [0, "#54d19c"],
    [0.35, "#17875e"],
    [0.7, "#0a523a"],
    [1, "#239f70"],
  ])}</linearGradient>` +
  `<radialGradient id="gp" cx=".5" cy=".5" r=".55" fx=".36" fy=".32">${stops([
    [0, "#ffffff"],
    [0.35, "#fbf6ee"],
    [0.72, "#ebe1d3"],
    [0.9, "#d9cab6"],
    [1, "#c4b39c"],
  ])}</radialGradient>` +
  `<filter id="b2" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="2"/></filter>` +
  `<filter id="b6" x="-60%" y="-60%" width="220%" height="220%"><feGaussianBlur stdDeviation="6"/></filter>` +
  `<filter id="b16" x="-80%" y="-80%" width="260%" height="260%"><feGaussianBlur stdDeviation="16"/></filter>` +
  `<filter id="ds" x="-25%" y="-25%" width="160%" height="160%"><feGaussianBlur in="SourceAlpha" stdDeviation="5"/>` +
  `<feOffset dx="6" dy="10"/><feComponentTransfer><feFuncA type="linear" slope=".3"/></feComponentTransfer>` +
  `<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>`;

type Gem = "none" | "diamante" | "esmeralda" | "perla";

/** Scene context shared by the piece drawers. */
interface Scene {
  m: Metal;
  /** contact-shadow colour, tinted to the background */
  sh: string;
  defs: Map<string, string>;
  /** chain-link shapes already defined: style+metal+scale -> short id */
  links: Map<string, string>;
  uid: () => string;
}

function newScene(mat: Material, sh: string): Scene {
  let n = 0;
  return { m: metal(mat), sh, defs: new Map(), links: new Map(), uid: () => `u${++n}` };
}

function withMetal(sc: Scene, mat: Material): Scene {
  return { ...sc, m: metal(mat) };
}

function contactShadow(sc: Scene, cx: number, cy: number, rx: number, ry: number): string {
  return (
    `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(ry)}" fill="${sc.sh}" opacity=".28" filter="url(#b16)"/>` +
    `<ellipse cx="${f(cx)}" cy="${f(cy - ry * 0.1)}" rx="${f(rx * 0.6)}" ry="${f(ry * 0.35)}" fill="${sc.sh}" opacity=".35" filter="url(#b6)"/>`
  );
}

function sparkle(x: number, y: number, s: number, op = 0.95): string {
  const X = f(x);
  const Y = f(y);
  return (
    `<path d="M${X} ${f(y - s)}Q${X} ${Y} ${f(x + s)} ${Y}Q${X} ${Y} ${X} ${f(y + s)}Q${X} ${Y} ${f(x - s)} ${Y}Q${X} ${Y} ${X} ${f(y - s)}Z" fill="#fff" opacity="${op}"/>` +
    `<circle cx="${X}" cy="${Y}" r="${f(s * 0.35)}" fill="#fff" opacity=".8" filter="url(#b2)"/>`
  );
}

function poly(pts: readonly (readonly [number, number])[]): string {
  return `M${pts.map(([x, y]) => `${f(x)} ${f(y)}`).join("L")}Z`;
}

/** A stone seen from the side, girdle centred at (x, y), half-width s. */
function gemSide(gem: Gem, x: number, y: number, s: number): string {
  if (gem === "diamante") {
    const crown = poly([
      [x - s, y],
      [x - 0.55 * s, y - 0.5 * s],
      [x + 0.55 * s, y - 0.5 * s],
      [x + s, y],
    ]);
    const pav = poly([
      [x - s, y],
      [x + s, y],
      [x, y + 0.95 * s],
    ]);
    const lines =
      `M${f(x - 0.55 * s)} ${f(y - 0.5 * s)}L${f(x - 0.3 * s)} ${f(y)}L${f(x)} ${f(y - 0.5 * s)}L${f(x + 0.3 * s)} ${f(y)}L${f(x + 0.55 * s)} ${f(y - 0.5 * s)}` +
      `M${f(x - 0.3 * s)} ${f(y)}L${f(x)} ${f(y + 0.95 * s)}L${f(x + 0.3 * s)} ${f(y)}`;
    return (
      `<path d="${pav}" fill="url(#gd)"/><path d="${crown}" fill="url(#gd)"/>` +
      `<path d="${poly([
        [x + 0.3 * s, y],
        [x + s, y],
        [x, y + 0.95 * s],
      ])}" fill="#7e93a6" opacity=".35"/>` +
      `<path d="${lines}" fill="none" stroke="#8397aa" stroke-width="${f(Math.max(0.8, s * 0.04))}" opacity=".7"/>` +
      `<path d="M${f(x - s)} ${f(y)}H${f(x + s)}" stroke="#fff" stroke-width="${f(Math.max(1, s * 0.05))}" opacity=".8"/>` +
      sparkle(x - 0.35 * s, y - 0.35 * s, s * 0.75)
    );
  }
  if (gem === "esmeralda") {
    const crown = poly([
      [x - s, y],
      [x - 0.72 * s, y - 0.42 * s],
      [x + 0.72 * s, y - 0.42 * s],
      [x + s, y],
    ]);
    const pav = poly([
      [x - s, y],
      [x + s, y],
      [x + 0.55 * s, y + 0.6 * s],
      [x - 0.55 * s, y + 0.6 * s],
    ]);
    return (
      `<path d="${pav}" fill="url(#ge)"/><path d="${crown}" fill="url(#ge)"/>` +
      `<path d="${poly([
        [x - 0.86 * s, y - 0.2 * s],
        [x + 0.86 * s, y - 0.2 * s],
        [x + 0.72 * s, y - 0.42 * s],
        [x - 0.72 * s, y - 0.42 * s],
      ])}" fill="#9ff0c8" opacity=".35"/>` +
      `<path d="M${f(x - s)} ${f(y)}H${f(x + s)}M${f(x - 0.8 * s)} ${f(y + 0.3 * s)}H${f(x + 0.8 * s)}" stroke="#c8ffe6" stroke-width="${f(Math.max(0.8, s * 0.04))}" opacity=".55"/>` +
      sparkle(x - 0.45 * s, y - 0.3 * s, s * 0.45, 0.8)
    );
  }
  if (gem === "perla") {
    return (
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s)}" fill="url(#gp)"/>` +
      `<ellipse cx="${f(x - 0.32 * s)}" cy="${f(y - 0.36 * s)}" rx="${f(s * 0.28)}" ry="${f(s * 0.18)}" fill="#fff" opacity=".85" transform="rotate(-35 ${f(x - 0.32 * s)} ${f(y - 0.36 * s)})"/>` +
      `<ellipse cx="${f(x + 0.2 * s)}" cy="${f(y + 0.45 * s)}" rx="${f(s * 0.5)}" ry="${f(s * 0.22)}" fill="#f3d9d2" opacity=".35"/>`
    );
  }
  return "";
}

/** A stone seen from above, centred at (x, y), radius s. */
function gemTop(gem: Gem, x: number, y: number, s: number): string {
  if (gem === "diamante" && s < 10) {
    // small pavé stone: facets would not read at this size
    return (
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s)}" fill="url(#gd)" stroke="#8397aa" stroke-width=".6" stroke-opacity=".6"/>` +
      `<circle cx="${f(x - s * 0.3)}" cy="${f(y - s * 0.3)}" r="${f(s * 0.35)}" fill="#fff"/>`
    );
  }
  if (gem === "diamante") {
    const pts: [number, number][] = [];
    for (let i = 0; i < 8; i++) {
      const a = rad(i * 45 + 22.5);
      pts.push([x + Math.cos(a) * s * 0.55, y + Math.sin(a) * s * 0.55]);
    }
    let rays = "";
    for (const [px, py] of pts) {
      const a = Math.atan2(py - y, px - x);
      rays += `M${f(px)} ${f(py)}L${f(x + Math.cos(a) * s)} ${f(y + Math.sin(a) * s)}`;
    }
    return (
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(s)}" fill="url(#gd)"/>` +
      `<path d="${poly(pts)}${rays}" fill="#fff" fill-opacity=".35" stroke="#8397aa" stroke-width="${f(Math.max(0.6, s * 0.05))}" stroke-opacity=".6"/>` +
      sparkle(x - 0.3 * s, y - 0.3 * s, s * 0.9)
    );
  }
  if (gem === "esmeralda") {
    const w = s * 0.8;
    const h = s * 1.1;
    const cut = s * 0.25;
    const oct = (k: number): [number, number][] => [
      [x - w * k + cut * k, y - h * k],
      [x + w * k - cut * k, y - h * k],
      [x + w * k, y - h * k + cut * k],
      [x + w * k, y + h * k - cut * k],
      [x + w * k - cut * k, y + h * k],
      [x - w * k + cut * k, y + h * k],
      [x - w * k, y + h * k - cut * k],
      [x - w * k, y - h * k + cut * k],
    ];
    return (
      `<path d="${poly(oct(1))}" fill="url(#ge)"/>` +
      `<path d="${poly(oct(0.72))}${poly(oct(0.45))}" fill="none" stroke="#b9f5d8" stroke-width="${f(Math.max(0.6, s * 0.05))}" opacity=".6"/>` +
      sparkle(x - 0.35 * w, y - 0.45 * h, s * 0.5, 0.8)
    );
  }
  return gemSide(gem, x, y, s);
}

/** Four-claw basket under a side-view stone whose girdle is at (x, y). */
function basket(m: Metal, x: number, y: number, s: number, depth: number): string {
  const c = m.c;
  return (
    `<path d="${poly([
      [x - 0.7 * s, y + 0.1 * s],
      [x + 0.7 * s, y + 0.1 * s],
      [x + 0.32 * s, y + depth],
      [x - 0.32 * s, y + depth],
    ])}" fill="${m.h}"/>` +
    `<path d="M${f(x - 0.34 * s)} ${f(y + depth)}L${f(x - 0.92 * s)} ${f(y - 0.28 * s)}M${f(x + 0.34 * s)} ${f(y + depth)}L${f(x + 0.92 * s)} ${f(y - 0.28 * s)}" stroke="${c.mid}" stroke-width="${f(s * 0.16)}" stroke-linecap="round" fill="none"/>` +
    `<path d="M${f(x - 0.92 * s)} ${f(y - 0.28 * s)}l0 0M${f(x + 0.92 * s)} ${f(y - 0.28 * s)}l0 0" stroke="${c.bright}" stroke-width="${f(s * 0.16)}" stroke-linecap="round"/>`
  );
}

/** Stone sitting on a mount whose top is at y = base. Returns the svg and the stone centre. */
function mountedGem(m: Metal, gem: Gem, x: number, base: number, s: number): string {
  if (gem === "perla") {
    return (
      `<path d="M${f(x - 0.5 * s)} ${f(base - 0.35 * s)}Q${f(x)} ${f(base + 0.25 * s)} ${f(x + 0.5 * s)} ${f(base - 0.35 * s)}Z" fill="${m.h}"/>` +
      gemSide("perla", x, base - 0.95 * s, s)
    );
  }
  if (gem === "none") return "";
  const girdle = base - s * 0.75;
  return gemSide(gem, x, girdle, s) + basket(m, x, girdle, s, s * 0.75);
}

// ---------------------------------------------------------------------------------------------------------
// Pieces. Each draws around (0, 0) in a ~700-unit box and reports a focal point for the detail view.

interface Piece {
  svg: string;
  fx: number;
  fy: number;
}

interface RingStyle {
  pose: "up" | "lie";
  w: number;
  h: number;
  gem: Gem;
  gs: number;
  groove?: boolean;
  trio?: boolean;
  stack?: boolean;
}

const RING_STYLES: readonly RingStyle[] = [
  { pose: "up", w: 17, h: 20, gem: "diamante", gs: 44 },
  { pose: "lie", w: 42, h: 40, gem: "none", gs: 0, groove: true },
  { pose: "up", w: 26, h: 26, gem: "esmeralda", gs: 44 },
  { pose: "lie", w: 18, h: 22, gem: "perla", gs: 38 },
  { pose: "up", w: 36, h: 30, gem: "none", gs: 0, trio: true },
  { pose: "lie", w: 16, h: 18, gem: "diamante", gs: 30, stack: true },
];

function ringUpright(sc: Scene, st: RingStyle, R = 170, withShadow = true): Piece {
  const { m } = sc;
  const c = m.c;
  const w = st.w;
  const r = R - w;
  const d = w * 0.3 + 7;
  const x0 = Math.sqrt(r * r - (d * d) / 4);
  let s = withShadow ? contactShadow(sc, 0, R + 4, R * 0.85, R * 0.1) : "";
  // back face (shows the top thickness of the band), inner surface, front face
  s += `<path d="${circ(0, -d, R)}${circ(0, -d, r)}" fill-rule="evenodd" fill="${m.v}"/>`;
  s += `<path d="M${f(-x0)} ${f(-d / 2)}A${f(r)} ${f(r)} 0 1 0 ${f(x0)} ${f(-d / 2)}A${f(r)} ${f(r)} 0 0 1 ${f(-x0)} ${f(-d / 2)}Z" fill="${m.b}"/>`;
  s += `<path d="${circ(0, 0, R)}${circ(0, 0, r)}" fill-rule="evenodd" fill="${m.a}"/>`;
  s += `<path d="${circ(0, 0, R - 0.5)}${circ(0, 0, r + 0.5)}" fill="none" stroke="${c.shadow}" stroke-opacity=".35" stroke-width="1.4"/>`;
  if (st.groove) {
    s += `<circle r="${f(R - w / 2)}" fill="none" stroke="${c.dark}" stroke-width="2.4" opacity=".6"/>`;
  }
  const mid = R - w / 2;
  s += `<path d="${arc(0, 0, mid, mid, 200, 246)}" fill="none" stroke="${c.spec}" stroke-width="${f(Math.max(3, w * 0.28))}" stroke-linecap="round" opacity=".9"/>`;
  s += `<path d="${arc(0, 0, mid, mid, 18, 44)}" fill="none" stroke="${c.bright}" stroke-width="${f(Math.max(2, w * 0.18))}" stroke-linecap="round" opacity=".7"/>`;
  let fy = -R * 0.6;
  let fx = R * 0.45;
  if (st.trio) {
    for (const a of [-118, -90, -62]) {
      const x = Math.cos(rad(a)) * mid;
      const y = Math.sin(rad(a)) * mid;
      const big = a === -90 ? 1.25 : 1;
      s += `<circle cx="${f(x)}" cy="${f(y)}" r="${f(w * 0.42 * big)}" fill="${m.b}"/>`;
      s += gemTop("diamante", x, y, w * 0.34 * big);
    }
    fx = 0;
    fy = -R;
  } else if (st.gem !== "none") {
    s += mountedGem(m, st.gem, 0, -R - d + 3, st.gs);
    fx = 0;
    fy = -R - st.gs * 0.6;
  }
  return { svg: s, fx, fy };
}

interface BandParts {
  back: string;
  rimFront: string;
  front: string;
}

/** A circular band lying flat, seen from ~25° above: rim ellipse (R, R*t), band width w, wall height h. */
function lyingBand(sc: Scene, cx: number, cy: number, R: number, t: number, w: number, h: number): BandParts {
  const { m } = sc;
  const c = m.c;
  const ry = R * t;
  const ri = R - w;
  const riy = ri * t;
  const innerWall = `M${f(cx - ri)} ${f(cy)}A${f(ri)} ${f(riy)} 0 0 1 ${f(cx + ri)} ${f(cy)}L${f(cx + ri)} ${f(cy + h)}A${f(ri)} ${f(riy)} 0 0 0 ${f(cx - ri)} ${f(cy + h)}Z`;
  const rim = `<path d="${ell(cx, cy, R, ry)}${ell(cx, cy, ri, riy)}" fill-rule="evenodd" fill="${m.a}"/>`;
  const frontWall = `M${f(cx - R)} ${f(cy)}A${f(R)} ${f(ry)} 0 0 0 ${f(cx + R)} ${f(cy)}L${f(cx + R)} ${f(cy + h)}A${f(R)} ${f(ry)} 0 0 1 ${f(cx - R)} ${f(cy + h)}Z`;
  const id = sc.uid();
  sc.defs.set(
    id,
    `<clipPath id="${id}"><rect x="${f(cx - R - 5)}" y="${f(cy)}" width="${f(2 * R + 10)}" height="${f(ry + 5)}"/></clipPath>`,
  );
  const mid = R - w / 2;
  const hl =
    `<path d="${arc(cx, cy, mid, mid * t, 196, 236)}" fill="none" stroke="${c.spec}" stroke-width="${f(Math.max(2.5, w * 0.3))}" stroke-linecap="round" opacity=".85"/>` +
    `<path d="${arc(cx, cy, mid, mid * t, 300, 320)}" fill="none" stroke="${c.bright}" stroke-width="${f(Math.max(2, w * 0.2))}" stroke-linecap="round" opacity=".6"/>`;
  return {
    back: `<path d="${innerWall}" fill="${m.b}"/>${rim}${hl}`,
    rimFront: `<g clip-path="url(#${id})">${rim}</g>`,
    front:
      `<path d="${frontWall}" fill="${m.h}"/>` +
      `<path d="${arc(cx, cy, R - 1, ry - 1, 175, 5)}" fill="none" stroke="${c.spec}" stroke-width="2" opacity=".55"/>` +
      `<path d="${arc(cx, cy + h, R - 0.5, ry, 178, 2)}" fill="none" stroke="${c.shadow}" stroke-width="1.5" opacity=".35"/>`,
  };
}

function ringLying(sc: Scene, st: RingStyle, R = 200, t = 0.4): Piece {
  const { m } = sc;
  const c = m.c;
  const h = st.h;
  const cy = -h / 2;
  let s = contactShadow(sc, 0, cy + R * t + h - 4, R * 1.05, R * t * 0.55);
  const drawOne = (y: number, w: number, hh: number): string => {
    const b = lyingBand(sc, 0, y, R, t, w, hh);
    return b.back + b.front;
  };
  if (st.stack) {
    s += drawOne(cy + h + 2, st.w, h);
  }
  const b = lyingBand(sc, 0, cy, R, t, st.w, h);
  s += b.back + b.front;
  if (st.groove) {
    s += `<path d="${arc(0, cy + h / 2, R, R * t, 178, 2)}" fill="none" stroke="${c.dark}" stroke-width="2.5" opacity=".55"/>`;
    s += `<path d="${arc(0, cy + h / 2 + 2, R, R * t, 178, 2)}" fill="none" stroke="${c.bright}" stroke-width="1.2" opacity=".6"/>`;
  }
  let fx = R * 0.5;
  let fy = cy + R * t;
  if (st.gem !== "none") {
    const gy = cy + (R - st.w / 2) * t + 4;
    s += mountedGem(m, st.gem, 0, gy, st.gs);
    fx = 0;
    fy = gy - st.gs;
  }
  return { svg: s, fx, fy };
}

// --- chains -----------------------------------------------------------------------------------------------

interface Pt {
  x: number;
  y: number;
}
type Seg = readonly [Pt, Pt, Pt, Pt];

function bez(p: Seg, t: number): Pt {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const cc = 3 * u * t * t;
  const d = t * t * t;
  return {
    x: a * p[0].x + b * p[1].x + cc * p[2].x + d * p[3].x,
    y: a * p[0].y + b * p[1].y + cc * p[2].y + d * p[3].y,
  };
}

const P = (x: number, y: number): Pt => ({ x, y });

/** Walks a polyline and returns evenly spaced points with their tangent angle (degrees). */
function along(poly: readonly Pt[], spacing: number): { x: number; y: number; a: number }[] {
  const out: { x: number; y: number; a: number }[] = [];
  let carry = spacing / 2;
  for (let i = 1; i < poly.length; i++) {
    const p0 = poly[i - 1] as Pt;
    const p1 = poly[i] as Pt;
    const dx = p1.x - p0.x;
    const dy = p1.y - p0.y;
    const len = Math.hypot(dx, dy);
    const a = (Math.atan2(dy, dx) * 180) / Math.PI;
    let pos = carry;
    while (pos <= len) {
      out.push({ x: p0.x + (dx * pos) / len, y: p0.y + (dy * pos) / len, a });
      pos += spacing;
    }
    carry = pos - len;
  }
  return out;
}

function segsToPolyline(segs: readonly Seg[]): Pt[] {
  const pts: Pt[] = [];
  for (const s of segs) for (let i = 0; i <= 60; i++) pts.push(bez(s, i / 60));
  return pts;
}

function ellipsePolyline(rx: number, ry: number, a0: number, a1: number, cy = 0): Pt[] {
  const pts: Pt[] = [];
  const n = 90;
  for (let i = 0; i <= n; i++) {
    const a = rad(a0 + ((a1 - a0) * i) / n);
    pts.push(P(Math.cos(a) * rx, cy + Math.sin(a) * ry));
  }
  return pts;
}

type ChainStyle = "fina" | "bolitas" | "clip" | "torzal";

function linkDef(sc: Scene, style: ChainStyle, scale: number): string {
  const c = sc.m.c;
  const key = `lk${style[0]}${sc.m.key}${Math.round(scale * 10)}`;
  const known = sc.links.get(key);
  if (known) return known;
  const id = `l${sc.links.size}`;
  sc.links.set(key, id);
  const k = scale;
  let body = "";
  if (style === "fina") {
    body =
      `<ellipse rx="${f(8 * k)}" ry="${f(4.6 * k)}" fill="none" stroke="${c.shadow}" stroke-width="${f(3.6 * k)}"/>` +
      `<ellipse rx="${f(8 * k)}" ry="${f(4.6 * k)}" fill="none" stroke="${c.light}" stroke-width="${f(2 * k)}"/>` +
      `<path d="M${f(-5 * k)} ${f(-4 * k)}h${f(5 * k)}" stroke="${c.spec}" stroke-width="${f(1.2 * k)}" stroke-linecap="round"/>`;
  } else if (style === "clip") {
    body =
      `<rect x="${f(-15 * k)}" y="${f(-5 * k)}" width="${f(30 * k)}" height="${f(10 * k)}" rx="${f(5 * k)}" fill="none" stroke="${c.shadow}" stroke-width="${f(4.2 * k)}"/>` +
      `<rect x="${f(-15 * k)}" y="${f(-5 * k)}" width="${f(30 * k)}" height="${f(10 * k)}" rx="${f(5 * k)}" fill="none" stroke="${c.light}" stroke-width="${f(2.6 * k)}"/>` +
      `<path d="M${f(-9 * k)} ${f(-5.4 * k)}h${f(14 * k)}" stroke="${c.spec}" stroke-width="${f(1.3 * k)}" stroke-linecap="round"/>`;
  } else if (style === "bolitas") {
    body = `<circle r="${f(5.6 * k)}" fill="${sc.m.r}"/>`;
  } else {
    body =
      `<path d="M${f(-4 * k)} ${f(5.5 * k)}L${f(4 * k)} ${f(-5.5 * k)}" stroke="${c.shadow}" stroke-width="${f(5.2 * k)}" stroke-linecap="round"/>` +
      `<path d="M${f(-3.4 * k)} ${f(4.6 * k)}L${f(3.4 * k)} ${f(-4.6 * k)}" stroke="${c.light}" stroke-width="${f(3 * k)}" stroke-linecap="round"/>` +
      `<path d="M${f(-1 * k)} ${f(-1 * k)}L${f(2.2 * k)} ${f(-4 * k)}" stroke="${c.spec}" stroke-width="${f(1.2 * k)}" stroke-linecap="round"/>`;
  }
  sc.defs.set(id, `<g id="${id}">${body}</g>`);
  return id;
}

const CHAIN_SPACING: Record<ChainStyle, number> = { fina: 12.5, bolitas: 12, clip: 28, torzal: 8 };

function chain(sc: Scene, line: readonly Pt[], style: ChainStyle, scale = 1): string {
  const id = linkDef(sc, style, scale);
  const pts = along(line, CHAIN_SPACING[style] * scale);
  let s = "";
  if (style === "bolitas") {
    s += `<path d="M${line
      .filter((_, i) => i % 3 === 0)
      .map((p) => `${f(p.x)} ${f(p.y)}`)
      .join("L")}" fill="none" stroke="${sc.m.c.dark}" stroke-width="${f(1.6 * scale)}"/>`;
  }
  pts.forEach((p, i) => {
    const twist = style === "fina" && i % 2 === 1 ? " scale(1 .45)" : "";
    const turn = style === "bolitas" ? "" : ` rotate(${Math.round(p.a)})`;
    s += `<use href="#${id}" transform="translate(${Math.round(p.x)} ${Math.round(p.y)})${turn}${twist}"/>`;
  });
  return s;
}

// --- pendants (bail at (0, 0), hanging down) --------------------------------------------------------------

type Pendant = "medalla" | "luna" | "gota" | "perla" | "barra";

function bail(m: Metal, r = 9): string {
  return `<ellipse cx="0" cy="${f(r)}" rx="${f(r * 0.7)}" ry="${f(r)}" fill="none" stroke="${m.c.mid}" stroke-width="4"/><ellipse cx="0" cy="${f(r)}" rx="${f(r * 0.7)}" ry="${f(r)}" fill="none" stroke="${m.c.bright}" stroke-width="1.4"/>`;
}

function pendant(sc: Scene, kind: Pendant): string {
  const { m } = sc;
  const c = m.c;
  if (kind === "medalla") {
    const cy = 80;
    let rays = "";
    for (let i = 0; i < 12; i++) {
      const a = rad(i * 30);
      const a1 = rad(i * 30 - 7);
      const a2 = rad(i * 30 + 7);
      rays += `M${f(Math.cos(a1) * 22)} ${f(cy + Math.sin(a1) * 22)}L${f(Math.cos(a) * 44)} ${f(cy + Math.sin(a) * 44)}L${f(Math.cos(a2) * 22)} ${f(cy + Math.sin(a2) * 22)}Z`;
    }
    return (
      bail(m) +
      `<circle cy="${cy}" r="62" fill="${m.a}"/>` +
      `<circle cy="${cy}" r="53" fill="${m.b}" opacity=".55"/>` +
      `<circle cy="${cy}" r="53" fill="none" stroke="${c.bright}" stroke-width="2" opacity=".7"/>` +
      `<path d="${rays}" fill="${c.light}" stroke="${c.dark}" stroke-width=".8"/>` +
      `<circle cy="${cy}" r="18" fill="${m.r}"/>` +
      `<path d="${arc(0, cy, 58, 58, 200, 250)}" fill="none" stroke="${c.spec}" stroke-width="4" stroke-linecap="round" opacity=".8"/>`
    );
  }
  if (kind === "luna") {
    const R = 62;
    return (
      bail(m) +
      g(
        `translate(0 16) rotate(-32) translate(0 ${R})`,
        `<path d="M0 ${-R}A${R} ${R} 0 1 0 0 ${R}A${f(R * 0.52)} ${R} 0 1 1 0 ${-R}Z" fill="${m.a}"/>` +
          `<path d="${arc(0, 0, R - 6, R - 6, 120, 230)}" fill="none" stroke="${c.spec}" stroke-width="3.5" stroke-linecap="round" opacity=".8"/>` +
          gemTop("diamante", -R * 0.66, R * 0.25, 9),
      )
    );
  }
  if (kind === "gota") {
    const drop = (k: number, dy: number): string =>
      `M0 ${f(dy - 58 * k)}C${f(24 * k)} ${f(dy - 30 * k)} ${f(44 * k)} ${f(dy)} ${f(44 * k)} ${f(dy + 22 * k)}A${f(44 * k)} ${f(44 * k)} 0 0 1 ${f(-44 * k)} ${f(dy + 22 * k)}C${f(-44 * k)} ${f(dy)} ${f(-24 * k)} ${f(dy - 30 * k)} 0 ${f(dy - 58 * k)}Z`;
    return (
      bail(m) +
      `<path d="${drop(1.08, 74)}" fill="${m.a}"/>` +
      `<path d="${drop(0.86, 76)}" fill="url(#ge)"/>` +
      `<path d="${drop(0.55, 80)}" fill="none" stroke="#b9f5d8" stroke-width="1.4" opacity=".55"/>` +
      sparkle(-14, 64, 12, 0.85)
    );
  }
  if (kind === "perla") {
    return (
      bail(m, 7) +
      `<path d="M-11 14Q0 8 11 14L9 26Q0 30 -9 26Z" fill="${m.h}"/>` +
      gemSide("perla", 0, 58, 34)
    );
  }
  return (
    bail(m, 7) +
    `<rect x="-10" y="13" width="20" height="128" rx="10" fill="${m.h}"/>` +
    `<rect x="-4" y="20" width="4" height="112" rx="2" fill="${c.spec}" opacity=".55"/>` +
    `<circle cy="118" r="11" fill="${m.b}"/>` +
    gemTop("diamante", 0, 118, 8.5)
  );
}

function clasp(m: Metal): string {
  return (
    `<circle cx="-14" r="6" fill="none" stroke="${m.c.mid}" stroke-width="3"/>` +
    `<ellipse cx="6" rx="15" ry="9" fill="${m.a}"/><path d="M-3 -4h14" stroke="${m.c.spec}" stroke-width="1.6" stroke-linecap="round"/>`
  );
}

interface NecklaceStyle {
  chain: ChainStyle;
  pendant: Pendant;
}

const CHAINS: readonly ChainStyle[] = ["fina", "bolitas", "clip", "torzal"];
const PENDANTS: readonly Pendant[] = ["medalla", "perla", "luna", "gota", "barra"];

function necklaceStyle(variant: number): NecklaceStyle {
  return { chain: pick(CHAINS, variant + Math.floor(variant / 5)), pendant: pick(PENDANTS, variant) };
}

type NecklacePose = "laid" | "hanging" | "worn" | "loose";

function necklace(sc: Scene, st: NecklaceStyle, pose: NecklacePose, linkScale = 1): Piece {
  let left: Seg;
  let right: Seg | null = null;
  let px = 0;
  let py = 0;
  let pr = 0;
  if (pose === "laid") {
    left = [P(0, -330), P(-380, -345), P(-240, 40), P(0, 110)];
    right = [P(0, 110), P(240, 40), P(380, -345), P(0, -330)];
    py = 110;
  } else if (pose === "hanging") {
    left = [P(-250, -640), P(-220, 320), P(220, 320), P(250, -640)];
    py = 80;
  } else if (pose === "worn") {
    left = [P(-96, -250), P(-150, 70), P(150, 70), P(96, -250)];
    py = -10;
  } else {
    left = [P(0, -330), P(-440, -300), P(-300, 260), P(40, 170)];
    right = [P(40, 170), P(300, 90), P(390, -330), P(0, -330)];
    px = 40;
    py = 170;
    pr = -18;
  }
  const line = segsToPolyline(right ? [left, right] : [left]);
  let s = chain(sc, line, st.chain, linkScale);
  if (pose === "laid" || pose === "loose") s += g("translate(0 -330)", clasp(sc.m));
  s += g(`translate(${px} ${py - 4}) rotate(${pr}) scale(1.3)`, pendant(sc, st.pendant));
  return { svg: `<g filter="url(#ds)">${s}</g>`, fx: px, fy: py + 70 };
}

// --- bracelets ----------------------------------------------------------------------------------------------

type BraceletStyle = "esclava" | "brazalete" | "cadena" | "riviera" | "duo";
const BRACELETS: readonly BraceletStyle[] = ["esclava", "cadena", "brazalete", "riviera", "duo"];

function braceletBand(style: BraceletStyle): { w: number; h: number } {
  if (style === "brazalete") return { w: 14, h: 104 };
  if (style === "duo") return { w: 18, h: 24 };
  return { w: 26, h: 34 };
}

/** A link or stone loop around an ellipse; back half first so the front overlaps. */
function braceletLoop(
  sc: Scene,
  style: BraceletStyle,
  R: number,
  t: number,
  cy: number,
  part: "all" | "back" | "front",
): string {
  const { m } = sc;
  const ranges: [number, number][] =
    part === "back"
      ? [[180, 360]]
      : part === "front"
        ? [[0, 180]]
        : [
            [180, 360],
            [0, 180],
          ];
  let s = "";
  for (const [a0, a1] of ranges) {
    const line = ellipsePolyline(R, R * t, a0, a1, cy);
    if (style === "riviera") {
      const pts = along(line, 25);
      for (const p of pts) {
        const k = 0.8 + 0.2 * ((p.y - cy) / (R * t) + 1) * 0.5;
        s += `<circle cx="${f(p.x)}" cy="${f(p.y)}" r="${f(11 * k)}" fill="${m.a}"/>`;
        s += `<circle cx="${f(p.x)}" cy="${f(p.y)}" r="${f(7.5 * k)}" fill="url(#gd)"/>`;
      }
    } else {
      s += chain(sc, line, "clip", 1.25);
    }
  }
  return s;
}

function bracelet(sc: Scene, style: BraceletStyle, pose: "lie" | "up" | "top", gem: Gem = "diamante"): Piece {
  const { m } = sc;
  if (style === "cadena" || style === "riviera") {
    const R = 250;
    const t = pose === "top" ? 0.92 : pose === "up" ? 0.62 : 0.42;
    let s = braceletLoop(sc, style, R, t, 0, "all");
    let fx = 0;
    let fy = R * t;
    if (style === "cadena") {
      s += g(`translate(${R} 0) rotate(90)`, clasp(m));
      s += g(`translate(0 ${f(R * t + 4)})`, pendant(sc, "luna").replace(/<ellipse[^>]*>/g, ""), "");
      fy = R * t + 60;
    } else {
      s += g(
        `translate(${R + 4} 0) rotate(90)`,
        `<rect x="-16" y="-9" width="32" height="18" rx="6" fill="${m.h}"/>`,
      );
      fx = -R * 0.5;
      fy = R * t * 0.85;
    }
    return { svg: `<g filter="url(#ds)">${s}</g>`, fx, fy };
  }
  const { w, h } = braceletBand(style);
  if (pose === "up") {
    const piece = ringUpright(
      sc,
      { pose: "up", w: w + 4, h, gem: "none", gs: 0, groove: style === "brazalete" },
      250,
    );
    return piece;
  }
  const R = 270;
  const t = pose === "top" ? 1 : 0.4;
  const hh = pose === "top" ? 0 : h;
  const cy = -hh / 2;
  let s = contactShadow(sc, 0, cy + R * t + hh - 6, R * 1.05, R * t * 0.5 + 10);
  if (style === "duo") {
    const low = lyingBand(sc, 0, cy + hh + 2, R, t, w + 6, hh);
    s += low.back + low.front;
  }
  const b = lyingBand(sc, 0, cy, R, t, w, hh);
  s += b.back + b.front;
  if (style === "brazalete" && pose !== "top") {
    for (const k of [0.3, 0.7]) {
      s += `<path d="${arc(0, cy + hh * k, R, R * t, 176, 4)}" fill="none" stroke="${m.c.dark}" stroke-width="2.4" opacity=".6"/>`;
      s += `<path d="${arc(0, cy + hh * k + 2.2, R, R * t, 176, 4)}" fill="none" stroke="${m.c.spec}" stroke-width="1.2" opacity=".6"/>`;
    }
    for (let i = -2; i <= 2; i++) {
      const a = 90 + i * 14;
      const x = Math.cos(rad(a)) * R;
      const y = cy + Math.sin(rad(a)) * R * t + hh / 2;
      s += `<circle cx="${f(x)}" cy="${f(y)}" r="11" fill="${m.b}"/>${gemTop("diamante", x, y, 8.5)}`;
    }
  }
  if (style === "esclava" && gem !== "none") {
    const y = pose === "top" ? R - w / 2 : cy + R * t + hh / 2;
    s += `<circle cy="${f(y)}" r="17" fill="${m.a}"/><circle cy="${f(y)}" r="17" fill="none" stroke="${m.c.shadow}" stroke-width="1.2" opacity=".4"/>`;
    s += gemTop(gem, 0, y, 12.5);
  }
  if (pose === "top") {
    s = `<g filter="url(#ds)">${s.replace(/<ellipse[^>]*filter="url\(#b(16|6)\)"\/>/g, "")}</g>`;
  }
  return { svg: s, fx: R * 0.35, fy: cy + R * t * 0.6 };
}

// --- earrings (hang point at (0, 0)) ------------------------------------------------------------------------

type EarringStyle = "arracada" | "flor" | "gota" | "huggie" | "perla" | "aro";
const EARRINGS: readonly EarringStyle[] = ["arracada", "flor", "gota", "huggie", "perla", "aro"];

interface Earring {
  svg: string;
  top: number;
  bottom: number;
}

function hook(m: Metal): string {
  return (
    `<path d="M0 28V6C0 -30 44 -30 44 2V18" fill="none" stroke="${m.c.dark}" stroke-width="6" stroke-linecap="round"/>` +
    `<path d="M0 28V6C0 -30 44 -30 44 2V18" fill="none" stroke="${m.c.light}" stroke-width="3" stroke-linecap="round"/>`
  );
}

function earring(sc: Scene, style: EarringStyle, gemAlt: boolean): Earring {
  const { m } = sc;
  const c = m.c;
  if (style === "arracada" || style === "aro") {
    const R = style === "arracada" ? 112 : 128;
    const cy = R + 6;
    let s = `<rect x="-5" y="0" width="10" height="14" rx="4" fill="${m.h}"/>`;
    if (style === "arracada") {
      const ri = 70;
      const off = 26;
      s += `<path d="${circ(0, cy, R)}${circ(0, cy - off, ri)}" fill-rule="evenodd" fill="${m.a}"/>`;
      s += `<circle cy="${f(cy - off)}" r="${ri + 6}" fill="none" stroke="${c.dark}" stroke-width="1.6" opacity=".5"/>`;
      s += `<circle cy="${cy}" r="${R - 6}" fill="none" stroke="${c.bright}" stroke-width="1.6" opacity=".7"/>`;
      let dots = "";
      for (let a = 30; a <= 150; a += 10) {
        const rr = (R + ri + off * Math.sin(rad(a)) * 0.0) / 2 + off * 0.45 * Math.sin(rad(a));
        dots += `<circle cx="${f(Math.cos(rad(a)) * rr)}" cy="${f(cy + Math.sin(rad(a)) * rr - off * 0.3)}" r="4.2" fill="${m.r}"/>`;
      }
      s += dots;
      s += `<path d="${arc(0, cy, R - 10, R - 10, 195, 240)}" fill="none" stroke="${c.spec}" stroke-width="5" stroke-linecap="round" opacity=".85"/>`;
      if (gemAlt) s += gemTop("esmeralda", 0, cy + R - 22, 12);
    } else {
      const p = ringUpright(sc, { pose: "up", w: 11, h: 10, gem: "none", gs: 0 }, R, false);
      s += g(`translate(0 ${cy})`, p.svg);
    }
    return { svg: s, top: 0, bottom: cy + R };
  }
  if (style === "flor") {
    let s = "";
    for (let i = 0; i < 5; i++) {
      s += `<ellipse cy="-30" rx="21" ry="33" fill="${m.a}" transform="rotate(${i * 72})"/>`;
      s += `<path d="M0 -12V-52" stroke="${c.dark}" stroke-width="1.4" opacity=".5" transform="rotate(${i * 72})"/>`;
    }
    s += `<circle r="22" fill="${m.b}"/>`;
    s += gemAlt ? gemTop("diamante", 0, 0, 18) : gemSide("perla", 0, 0, 19);
    return { svg: s, top: -62, bottom: 62 };
  }
  if (style === "huggie") {
    const R = 66;
    const cy = R;
    const p = ringUpright(sc, { pose: "up", w: 20, h: 14, gem: "none", gs: 0 }, R, false);
    let s = g(`translate(0 ${cy})`, p.svg);
    for (let a = 25; a <= 155; a += 21.6) {
      const x = Math.cos(rad(a)) * (R - 10);
      const y = cy + Math.sin(rad(a)) * (R - 10);
      s += gemAlt
        ? `<circle cx="${f(x)}" cy="${f(y)}" r="6" fill="url(#ge)"/>`
        : gemTop("diamante", x, y, 6.2);
    }
    s += sparkle(-R * 0.5, cy + R * 0.62, 11);
    return { svg: s, top: 0, bottom: cy + R };
  }
  if (style === "gota") {
    const s =
      hook(m) +
      `<circle cy="34" r="7" fill="none" stroke="${c.mid}" stroke-width="3"/>` +
      g("translate(0 30)", pendant(sc, gemAlt ? "medalla" : "gota").replace(/<ellipse[^>]*>/g, ""));
    return { svg: s, top: -22, bottom: 175 };
  }
  // perla: stud + bar + pearl
  const pearl = gemAlt ? 26 : 32;
  return {
    svg:
      `<circle r="15" fill="${m.r}"/>` +
      `<rect x="-3.5" y="12" width="7" height="76" rx="3.5" fill="${m.h}"/>` +
      `<path d="M-10 84Q0 78 10 84L8 96Q0 99 -8 96Z" fill="${m.h}"/>` +
      gemSide("perla", 0, 96 + pearl * 0.9, pearl),
    top: -15,
    bottom: 96 + pearl * 1.9,
  };
}

function braceletGem(v: number): Gem {
  return pick(["diamante", "esmeralda", "perla", "none"] as const, Math.floor(v / BRACELETS.length));
}

function earringScale(style: EarringStyle): number {
  if (style === "flor" || style === "huggie") return 1.8;
  if (style === "gota" || style === "perla") return 1.75;
  return 1.3;
}

/** Puts a drawing in <defs> once so it can be placed several times with <use>. */
function defineShape(sc: Scene, svg: string): string {
  const id = sc.uid();
  sc.defs.set(id, `<g id="${id}">${svg}</g>`);
  return id;
}

function earringPair(sc: Scene, style: EarringStyle, gemAlt: boolean, angled: boolean): Piece {
  const e = earring(sc, style, gemAlt);
  const id = defineShape(sc, e.svg);
  const mid = (e.top + e.bottom) / 2;
  const gap = style === "flor" ? 120 : style === "huggie" ? 110 : 150;
  const use = (transform: string): string => `<use href="#${id}" transform="${transform}"/>`;
  let s: string;
  if (angled) {
    s =
      use(`translate(${-gap - 20} ${f(-mid - 70)}) rotate(-14)`) +
      use(`translate(${gap - 10} ${f(-mid + 60)}) rotate(22)`);
  } else {
    s = use(`translate(${-gap} ${f(-mid)})`) + use(`translate(${gap} ${f(-mid)})`);
  }
  return { svg: `<g filter="url(#ds)">${s}</g>`, fx: -gap, fy: e.bottom * 0.75 - mid };
}

// ---------------------------------------------------------------------------------------------------------
// Backgrounds, forms and props

interface Backdrop {
  light: string;
  dark: string;
  sh: string;
  formLight: string;
  formDark: string;
}

const BACKDROPS: readonly Backdrop[] = [
  { light: "#f5ecde", dark: "#e3d2ba", sh: "#5c4128", formLight: "#ede0cc", formDark: "#c9b294" }, // arena
  { light: "#e8ece1", dark: "#cdd6c3", sh: "#36442f", formLight: "#dde4d3", formDark: "#a9b69a" }, // salvia
  { light: "#f7e8e2", dark: "#e7cdc3", sh: "#5e3a30", formLight: "#f0ddd5", formDark: "#c9a497" }, // rubor
  { light: "#efedea", dark: "#d7d2cb", sh: "#3d3934", formLight: "#e6e2dc", formDark: "#b3aca2" }, // piedra
  { light: "#faf6ee", dark: "#ece3d3", sh: "#5a4a34", formLight: "#f3ece0", formDark: "#cdbfa7" }, // marfil
];

function backdropDefs(b: Backdrop): string {
  return (
    `<radialGradient id="bg" cx=".5" cy=".42" r=".78">${stops([
      [0, b.light],
      [0.55, b.light],
      [1, b.dark],
    ])}</radialGradient>` +
    `<linearGradient id="fm" x1="0" y1="0" x2="1" y2="0">${stops([
      [0, b.formDark],
      [0.32, b.formLight],
      [0.55, b.formLight],
      [1, b.formDark],
    ])}</linearGradient>` +
    `<pattern id="ln" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M0 .5H6M.5 0V6" stroke="${b.sh}" stroke-width=".6" opacity=".07"/></pattern>`
  );
}

function ringCone(): string {
  return (
    `<ellipse cx="0" cy="300" rx="200" ry="34" fill="url(#fm)"/>` +
    `<path d="M-40 -300Q0 -322 40 -300L200 300Q0 334 -200 300Z" fill="url(#fm)"/>`
  );
}

function column(top: number, bottom: number, hw: number): string {
  return (
    `<path d="M${-hw} ${top}V${bottom}A${hw} ${f(hw * 0.2)} 0 0 0 ${hw} ${bottom}V${top}Z" fill="url(#fm)"/>` +
    `<ellipse cy="${top}" rx="${hw}" ry="${f(hw * 0.2)}" fill="url(#fm)"/>` +
    `<ellipse cy="${top}" rx="${hw}" ry="${f(hw * 0.2)}" fill="#fff" opacity=".25"/>`
  );
}

function bust(): string {
  return (
    `<path d="M-92 -560V-250C-92 -190 -140 -160 -230 -130C-330 -96 -380 -40 -390 60L-400 600H400L390 60C380 -40 330 -96 230 -130C140 -160 92 -190 92 -250V-560Z" fill="url(#fm)"/>` +
    `<path d="M-92 -250C-60 -215 60 -215 92 -250" fill="none" stroke="#000" stroke-width="3" opacity=".06"/>`
  );
}

function archPanel(): string {
  return (
    `<path d="M-320 520V-110A320 320 0 0 1 320 -110V520Z" fill="url(#fm)"/>` +
    `<path d="M-320 520V-110A320 320 0 0 1 320 -110V520" fill="none" stroke="#fff" stroke-width="4" opacity=".35"/>`
  );
}

function sprig(color: string, rnd: () => number): string {
  let s = `<path d="M0 0C40 -80 90 -150 170 -210" fill="none" stroke="${color}" stroke-width="4" stroke-linecap="round"/>`;
  for (let i = 1; i <= 7; i++) {
    const t = i / 8;
    const p = bez([P(0, 0), P(40, -80), P(90, -150), P(170, -210)], t);
    const side = i % 2 === 0 ? 1 : -1;
    const ang = -50 + side * (55 + rnd() * 15);
    s += `<ellipse cx="${f(p.x)}" cy="${f(p.y)}" rx="${f(34 - i * 2)}" ry="${f(11 - i * 0.6)}" fill="${color}" transform="rotate(${f(ang)} ${f(p.x)} ${f(p.y)}) translate(${f(30 - i * 2)} 0)"/>`;
  }
  return s;
}

function dish(b: Backdrop): string {
  return (
    `<circle r="170" fill="${b.formLight}"/>` +
    `<circle r="150" fill="${b.formDark}" opacity=".35"/>` +
    `<circle r="140" fill="${b.formLight}"/>` +
    `<path d="${arc(0, 0, 160, 160, 190, 260)}" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" opacity=".6"/>`
  );
}

function svgDoc(w: number, h: number, vw: number, vh: number, defs: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(w)}" height="${Math.round(h)}" viewBox="0 0 ${vw} ${vh}" preserveAspectRatio="xMidYMid slice">` +
    `<defs>${defs}</defs>${body}</svg>`
  );
}

// ---------------------------------------------------------------------------------------------------------
// Product art

const CAT_INDEX: Record<Categoria, number> = { Anillo: 0, Collar: 1, Pulsera: 2, Arete: 3 };

/** The main shot for a category/variant, in local coordinates, plus where to place it on the canvas. */
function mainPiece(sc: Scene, cat: Categoria, v: number): { piece: Piece; scale: number; y: number } {
  if (cat === "Anillo") {
    const st = ringStyleFor(v);
    const p = st.pose === "up" ? ringUpright(sc, st) : ringLying(sc, st);
    return { piece: p, scale: st.pose === "up" ? 1.45 : 1.55, y: 530 };
  }
  if (cat === "Collar") {
    return { piece: necklace(sc, necklaceStyle(v), "laid"), scale: 1.08, y: 545 };
  }
  if (cat === "Pulsera") {
    const style = pick(BRACELETS, v);
    return { piece: bracelet(sc, style, "lie", braceletGem(v)), scale: 1.25, y: 520 };
  }
  const style = pick(EARRINGS, v);
  const gemAlt = Math.floor(v / EARRINGS.length) % 2 === 1;
  return { piece: earringPair(sc, style, gemAlt, false), scale: earringScale(style), y: 500 };
}

function altGem(gem: Gem, v: number, n: number): Gem {
  if (Math.floor(v / n) % 2 === 0) return gem;
  if (gem === "diamante") return "esmeralda";
  if (gem === "esmeralda") return "perla";
  if (gem === "perla") return "diamante";
  return gem;
}

function ringStyleFor(v: number): RingStyle {
  const st = pick(RING_STYLES, v);
  return { ...st, gem: altGem(st.gem, v, RING_STYLES.length) };
}

export function jewelSvg(opts: JewelArtOptions, width: number, height: number): string {
  const v = Math.max(0, Math.floor(opts.variant));
  const view = Math.max(0, Math.min(4, Math.floor(opts.view)));
  const cat = opts.categoria;
  const rnd = prng(hashString(`${cat}|${opts.material}|${v}|${view}`));
  const bd = pick(BACKDROPS, v * 3 + CAT_INDEX[cat] + (view === 4 ? 2 : 0));
  const sc = newScene(opts.material, bd.sh);
  const tilt = (rnd() - 0.5) * 8;
  let body = `<rect width="1000" height="1000" fill="url(#bg)"/>`;

  if (view === 0 || view === 1) {
    const { piece, scale, y } = mainPiece(sc, cat, v);
    const placed = g(
      `translate(500 ${y}) scale(${scale}) rotate(${f(cat === "Anillo" ? 0 : tilt)})`,
      piece.svg,
    );
    if (view === 0) {
      body += placed;
    } else {
      const fx = 500 + piece.fx * scale;
      const fy = y + piece.fy * scale;
      const k = { Anillo: 1.6, Collar: 2.1, Pulsera: 1.5, Arete: 1.6 }[cat];
      body += g(`translate(500 520) scale(${k}) translate(${f(-fx)} ${f(-fy)})`, placed);
    }
  } else if (view === 2) {
    body += angleView(sc, cat, v, tilt);
  } else if (view === 3) {
    body += wornView(sc, cat, v);
  } else {
    body += `<rect width="1000" height="1000" fill="url(#ln)"/>`;
    const leaf = pick(["#8d9c7a", "#a3a77f", "#7f8f74", "#b49a78"], v);
    body += g(`translate(${f(840 + rnd() * 40)} ${f(150 + rnd() * 30)})`, dish(bd), ` filter="url(#ds)"`);
    body += g(
      `translate(0 1000) rotate(${f(10 + rnd() * 10)}) scale(1.15)`,
      sprig(leaf, rnd),
      ` filter="url(#ds)"`,
    );
    body += flatLay(sc, cat, v, rnd);
  }

  const extra = [...sc.defs.values()].join("");
  return svgDoc(
    width,
    height,
    1000,
    1000,
    metalDefs(opts.material) + SHARED_DEFS + backdropDefs(bd) + extra,
    body,
  );
}

function angleView(sc: Scene, cat: Categoria, v: number, tilt: number): string {
  if (cat === "Anillo") {
    const st = ringStyleFor(v);
    if (st.pose === "up") {
      const p = ringLying(sc, { ...st, h: st.w * 0.9 + 6, gs: st.gs * 0.8 });
      return g(`translate(500 540) scale(1.55) rotate(-6)`, p.svg);
    }
    const p = ringUpright(sc, { ...st, w: Math.min(st.w, 34) });
    return g(`translate(500 520) scale(1.45) rotate(8)`, p.svg);
  }
  if (cat === "Collar") {
    const p = necklace(sc, necklaceStyle(v), "hanging");
    return g(`translate(500 520) scale(1.15) rotate(${f(tilt * 0.5)})`, p.svg);
  }
  if (cat === "Pulsera") {
    const style = pick(BRACELETS, v);
    if (style === "cadena" || style === "riviera") {
      return g(`translate(500 520) scale(1.3) rotate(${f(14 + tilt)})`, bracelet(sc, style, "up").svg);
    }
    return g(`translate(500 520) scale(1.3) rotate(${f(tilt)})`, bracelet(sc, style, "up").svg);
  }
  const style = pick(EARRINGS, v);
  const gemAlt = Math.floor(v / EARRINGS.length) % 2 === 1;
  return g(`translate(500 500) scale(${earringScale(style)})`, earringPair(sc, style, gemAlt, true).svg);
}

function wornView(sc: Scene, cat: Categoria, v: number): string {
  if (cat === "Anillo") {
    const st = ringStyleFor(v);
    const ri = 118;
    const R = ri + Math.min(st.w, 30);
    const y = -300 + ((ri - 40) / 160) * 600;
    const t = 0.3;
    const b = lyingBand(sc, 0, y, R, t, R - ri, Math.max(16, st.h * 0.7));
    let s = contactShadow(sc, 0, 305, 220, 30) + b.back + ringCone() + b.rimFront + b.front;
    if (st.gem !== "none") s += mountedGem(sc.m, st.gem, 0, y + (R - (R - ri) / 2) * t + 4, st.gs * 0.75);
    if (st.trio) {
      for (const a of [70, 90, 110]) {
        const x = Math.cos(rad(a)) * (R - (R - ri) / 2);
        const yy = y + Math.sin(rad(a)) * (R - (R - ri) / 2) * t;
        s += `<circle cx="${f(x)}" cy="${f(yy)}" r="9" fill="${sc.m.b}"/>${gemTop("diamante", x, yy, 7)}`;
      }
    }
    return g("translate(500 500) scale(1.3)", s);
  }
  if (cat === "Collar") {
    const p = necklace(sc, necklaceStyle(v), "worn");
    return g("translate(500 600) scale(1.55)", bust() + p.svg);
  }
  if (cat === "Pulsera") {
    const style = pick(BRACELETS, v);
    const hw = 150;
    let s = contactShadow(sc, 0, 330, 170, 30);
    if (style === "cadena" || style === "riviera") {
      const R = hw + 14;
      s +=
        braceletLoop(sc, style, R, 0.32, 40, "back") +
        column(-300, 330, hw) +
        braceletLoop(sc, style, R, 0.32, 40, "front");
      if (style === "cadena")
        s += g(`translate(0 ${f(40 + R * 0.32)})`, pendant(sc, "luna").replace(/<ellipse[^>]*>/g, ""));
    } else {
      const { w, h } = braceletBand(style);
      const b = lyingBand(sc, 0, 20, hw + w, 0.28, w, h);
      s += b.back + column(-300, 330, hw) + b.rimFront + b.front;
      if (style === "duo") {
        const b2 = lyingBand(sc, 0, 20 + h + 14, hw + w + 4, 0.28, w + 6, h);
        s += b2.rimFront + b2.front;
      }
    }
    return g("translate(500 500) scale(1.2)", s);
  }
  const style = pick(EARRINGS, v);
  const gemAlt = Math.floor(v / EARRINGS.length) % 2 === 1;
  const e = earring(sc, style, gemAlt);
  const k = earringScale(style) * 0.85;
  const y = style === "flor" ? 20 : -130;
  const gap = style === "arracada" || style === "aro" ? 165 : 135;
  const id = defineShape(sc, e.svg);
  const one = (x: number): string => `<use href="#${id}" transform="translate(${x} ${y}) scale(${f(k)})"/>`;
  return g("translate(500 560) scale(1.1)", `${archPanel()}<g filter="url(#ds)">${one(-gap)}${one(gap)}</g>`);
}

function flatLay(sc: Scene, cat: Categoria, v: number, rnd: () => number): string {
  const rot = f(-18 + rnd() * 36);
  if (cat === "Anillo") {
    const st = ringStyleFor(v);
    const R = 150;
    const w = Math.min(st.w + 4, 40);
    let s = `<path d="${circ(0, 0, R)}${circ(0, 0, R - w)}" fill-rule="evenodd" fill="${sc.m.a}"/>`;
    s += `<path d="${arc(0, 0, R - w / 2, R - w / 2, 200, 250)}" fill="none" stroke="${sc.m.c.spec}" stroke-width="${f(w * 0.3)}" stroke-linecap="round" opacity=".85"/>`;
    s += `<circle r="${f(R - w)}" fill="none" stroke="${sc.m.c.shadow}" stroke-width="3" opacity=".35"/>`;
    if (st.gem !== "none") {
      s +=
        `<circle cy="${f(-R + w / 2)}" r="${f(st.gs * 0.85)}" fill="${sc.m.a}"/>` +
        gemTop(st.gem, 0, -R + w / 2, st.gs * 0.68);
    } else if (st.trio) {
      for (const a of [-115, -90, -65]) {
        const x = Math.cos(rad(a)) * (R - w / 2);
        const y = Math.sin(rad(a)) * (R - w / 2);
        s +=
          `<circle cx="${f(x)}" cy="${f(y)}" r="${f(w * 0.4)}" fill="${sc.m.b}"/>` +
          gemTop("diamante", x, y, w * 0.32);
      }
    }
    return g(`translate(460 560) scale(1.3) rotate(${rot})`, `<g filter="url(#ds)">${s}</g>`);
  }
  if (cat === "Collar") {
    return g(
      `translate(470 540) scale(1) rotate(${f(Number(rot) * 0.4)})`,
      necklace(sc, necklaceStyle(v), "loose").svg,
    );
  }
  if (cat === "Pulsera") {
    return g(
      `translate(470 560) scale(1.05) rotate(${rot})`,
      bracelet(sc, pick(BRACELETS, v), "top", braceletGem(v)).svg,
    );
  }
  const style = pick(EARRINGS, v);
  const gemAlt = Math.floor(v / EARRINGS.length) % 2 === 1;
  return g(
    `translate(460 560) scale(${f(earringScale(style) * 0.9)}) rotate(${f(Number(rot) * 0.5)})`,
    earringPair(sc, style, gemAlt, false).svg,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Drop covers

interface CoverPalette {
  light: string;
  dark: string;
  plinthLight: string;
  plinthDark: string;
  sh: string;
  leaf: string;
}

const COVER_PALETTES: Record<DropCoverPalette, CoverPalette> = {
  arena: {
    light: "#f1e5d2",
    dark: "#dcc6a4",
    plinthLight: "#f6ecdd",
    plinthDark: "#cdb18b",
    sh: "#5a3f22",
    leaf: "#9a9a72",
  },
  salvia: {
    light: "#e4e9dc",
    dark: "#bcc7ae",
    plinthLight: "#eef1e8",
    plinthDark: "#a3b092",
    sh: "#2f3b28",
    leaf: "#6f8062",
  },
  terracota: {
    light: "#ecc9b0",
    dark: "#c98b66",
    plinthLight: "#f3dccb",
    plinthDark: "#b8714d",
    sh: "#4f2414",
    leaf: "#7d7a52",
  },
  perla: {
    light: "#f5f3ef",
    dark: "#d8d3ca",
    plinthLight: "#fbfaf7",
    plinthDark: "#c2bbaf",
    sh: "#3b3731",
    leaf: "#8f9784",
  },
};

function plinth(cx: number, top: number, rx: number, bottom: number): string {
  const ry = rx * 0.22;
  return (
    `<path d="M${cx - rx} ${top}V${bottom}H${cx + rx}V${top}Z" fill="url(#pl)"/>` +
    `<ellipse cx="${cx}" cy="${top}" rx="${rx}" ry="${f(ry)}" fill="url(#pt)"/>`
  );
}

export function dropCoverSvg(
  opts: { seed: number; palette: DropCoverPalette },
  width: number,
  height: number,
): string {
  const pal = COVER_PALETTES[opts.palette] ?? COVER_PALETTES.arena;
  const rnd = prng(hashString(`cover|${opts.seed}|${opts.palette}`));
  const mats: Material[] = ["Oro amarillo", "Oro rosa", "Oro blanco"];
  const main: Material = rnd() < 0.7 ? "Oro amarillo" : pick(mats, Math.floor(rnd() * 3));
  const second: Material = pick(mats, Math.floor(rnd() * 3));
  const sc = newScene(main, pal.sh);
  const sc2 = withMetal(sc, second);
  // composition: seed parity picks the layout, the next bit mirrors it
  const seedInt = Math.abs(Math.floor(opts.seed));
  const layout = seedInt % 2;
  const flip = Math.floor(seedInt / 2) % 2 === 1;
  const mx = (x: number): number => (flip ? 1600 - x : x);

  const defs =
    [...new Set([main, second])].map(metalDefs).join("") +
    SHARED_DEFS +
    `<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">${stops([
      [0, pal.light],
      [0.6, pal.light],
      [1, pal.dark],
    ])}</linearGradient>` +
    `<linearGradient id="pl" x1="0" y1="0" x2="1" y2="0">${stops([
      [0, pal.plinthDark],
      [0.3, pal.plinthLight],
      [0.6, pal.plinthLight],
      [1, pal.plinthDark],
    ])}</linearGradient>` +
    `<linearGradient id="pt" x1="0" y1="0" x2="1" y2="1">${stops([
      [0, "#ffffff"],
      [1, pal.plinthLight],
    ])}</linearGradient>` +
    `<pattern id="ln" width="7" height="7" patternUnits="userSpaceOnUse"><path d="M0 .5H7M.5 0V7" stroke="${pal.sh}" stroke-width=".7" opacity=".06"/></pattern>`;
  const grainDef = (specks: string): string =>
    `<pattern id="gr" width="173" height="131" patternUnits="userSpaceOnUse"><g fill="${pal.sh}" opacity=".1">${specks}</g></pattern>`;

  let body = `<rect width="1600" height="900" fill="url(#bg)"/><rect width="1600" height="900" fill="url(#ln)"/>`;
  // grain: a few specks in an odd-sized tile so the repeat does not show
  let grain = "";
  for (let i = 0; i < 9; i++) {
    grain += `<circle cx="${Math.round(rnd() * 173)}" cy="${Math.round(rnd() * 131)}" r="${f(0.8 + rnd() * 1.4)}"/>`;
  }
  body += `<rect width="1600" height="900" fill="url(#gr)"/>`;
  // window light: soft diagonal shadows
  const ang = -30 + rnd() * 14;
  let blinds = "";
  for (let i = 0; i < 4; i++) {
    const x = -200 + i * 260 + rnd() * 60;
    blinds += `<rect x="${f(x)}" y="-600" width="${f(70 + rnd() * 60)}" height="2200"/>`;
  }
  body += `<g fill="${pal.sh}" opacity=".07" filter="url(#b16)" transform="rotate(${f(ang)} 800 450)">${blinds}</g>`;
  // leaf shadow
  body += g(
    `translate(${f(mx(1400))} ${f(60 + rnd() * 60)}) rotate(${f(110 + rnd() * 40)}) scale(2.2)`,
    sprig(pal.sh, rnd),
    ` opacity=".08" filter="url(#b6)"`,
  );

  const pieces: string[] = [];
  const ringSt: RingStyle = {
    ...pick(
      RING_STYLES.filter((r) => r.pose === "up"),
      Math.floor(rnd() * 3),
    ),
  };
  if (ringSt.gem === "none" && !ringSt.trio) ringSt.gem = "diamante";
  const neck = necklaceStyle(Math.floor(rnd() * 20));
  // the twisted chain needs many small links; keep covers light with the other styles
  if (neck.chain === "torzal") neck.chain = "fina";
  const ear = pick(EARRINGS, Math.floor(rnd() * 6));
  const brac = pick(["esclava", "duo", "brazalete"] as const, Math.floor(rnd() * 3));

  if (layout === 0) {
    // tall plinth with a ring on top, necklace laid on the surface, earrings in front, bangle at the side
    const px = mx(1060);
    pieces.push(contactShadow(sc, px + 20, 880, 230, 40));
    pieces.push(plinth(px, 470, 190, 940));
    const ring = ringUpright(sc, ringSt, 170, false);
    pieces.push(contactShadow(sc, px, 470 + 2, 120, 16));
    pieces.push(g(`translate(${px} ${f(470 - 170 * 0.8)}) scale(.8)`, ring.svg));
    pieces.push(
      g(
        `translate(${mx(470)} 420) scale(.78) rotate(${flip ? 12 : -12})`,
        necklace(sc2, neck, "laid", 1.7).svg,
      ),
    );
    pieces.push(g(`translate(${mx(560)} 760) scale(.62)`, earringPair(sc, ear, rnd() < 0.5, false).svg));
    if (rnd() < 0.75) pieces.push(g(`translate(${mx(1390)} 790) scale(.55)`, bracelet(sc2, brac, "lie").svg));
  } else {
    // two plinths of different heights, necklace draped in front
    const p1 = mx(430);
    const p2 = mx(1180);
    pieces.push(contactShadow(sc, p1 + 20, 880, 220, 40), contactShadow(sc, p2 + 20, 880, 210, 40));
    pieces.push(plinth(p1, 560, 175, 940), plinth(p2, 400, 165, 940));
    const band = braceletBand(brac);
    const lift = 270 * 0.4 + band.h / 2 + (brac === "duo" ? band.h + 2 : 0);
    pieces.push(g(`translate(${p1} ${f(585 - lift * 0.58)}) scale(.58)`, bracelet(sc2, brac, "lie").svg));
    const ring = ringUpright(sc, ringSt, 170, false);
    pieces.push(contactShadow(sc, p2, 400, 110, 14));
    pieces.push(g(`translate(${p2} ${f(400 - 170 * 0.75)}) scale(.75)`, ring.svg));
    pieces.push(
      g(
        `translate(800 450) scale(.8) rotate(${f((rnd() - 0.5) * 16)})`,
        necklace(sc, neck, "hanging", 1.9).svg,
      ),
    );
    pieces.push(g(`translate(${mx(800)} 790) scale(.55)`, earringPair(sc2, ear, rnd() < 0.5, false).svg));
  }
  body += pieces.join("");
  // sc2 shares sc's defs map, so this holds the clip paths and link shapes of both metals
  const extra = [...sc.defs.values()].join("");
  return svgDoc(width, height, 1600, 900, defs + grainDef(grain) + extra, body);
}
