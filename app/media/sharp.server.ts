import type Sharp from "sharp";

/**
 * sharp, loaded with the first image it reads: its native library takes about 85 ms to load, which
 * every start of every process paid before, though most starts draw and receive no image.
 */
let loading: Promise<typeof Sharp> | undefined;

export function loadSharp(): Promise<typeof Sharp> {
  // A failed load is not kept: the next image tries again.
  loading ??= import("sharp").then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
