import type Sharp from "sharp";

/**
 * sharp, loaded with the first image it reads: its native library takes about 85 ms to load, which
 * every start of every process paid before, though most starts draw and receive no image.
 */
let loading: Promise<typeof Sharp> | undefined;

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then((module) => module.default);
  return loading;
}
