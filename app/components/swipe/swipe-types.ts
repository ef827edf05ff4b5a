import type useEmblaCarousel from "embla-carousel-react";

/** Embla's options and handle, named once for the hook and the lazily loaded driver. */
export type SwipeOptions = NonNullable<Parameters<typeof useEmblaCarousel>[0]>;
export type SwipeApi = NonNullable<ReturnType<typeof useEmblaCarousel>[1]>;
