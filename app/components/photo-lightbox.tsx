import { useState } from "react";
import Lightbox from "yet-another-react-lightbox";
import Zoom from "yet-another-react-lightbox/plugins/zoom";
import "yet-another-react-lightbox/styles.css";
import type { ImageView } from "~/media/media.server";

const LABELS = {
  Previous: "Foto anterior",
  Next: "Foto siguiente",
  Close: "Cerrar",
  "Zoom in": "Acercar",
  "Zoom out": "Alejar",
  Lightbox: "Fotos ampliadas",
  Carousel: "carrusel",
  Slide: "foto",
  "{index} of {total}": "{index} de {total}",
};

/** Every stored width of a photo, so the viewer loads sharper copies as it zooms in. */
function slideOf(image: ImageView, alt: string) {
  const srcSet = image.srcSet.split(", ").map((entry) => {
    const [src = image.src, w = ""] = entry.split(" ");
    const width = Number.parseInt(w, 10) || image.width;
    return { src, width, height: Math.round((width * image.height) / image.width) };
  });
  const full = srcSet[srcSet.length - 1];
  return { src: full?.src ?? image.src, alt, width: full?.width, height: full?.height, srcSet };
}

/** The product's photos full size, with pinch, double-tap and wheel zoom; swipes between them. */
export default function PhotoLightbox({
  images,
  alts,
  index,
  title,
  onView,
  onClose,
}: {
  images: ImageView[];
  alts: string[];
  index: number;
  title: string;
  onView: (index: number) => void;
  onClose: () => void;
}) {
  // Made once: new slides would send the viewer back to the photo it opened on.
  const [slides] = useState(() => images.map((image, i) => slideOf(image, alts[i] ?? title)));
  return (
    <Lightbox
      open
      close={onClose}
      index={index}
      slides={slides}
      plugins={[Zoom]}
      labels={{ ...LABELS, "Photo gallery": `Fotos de ${title}` }}
      carousel={{ finite: images.length < 3 }}
      zoom={{ maxZoomPixelRatio: 2, scrollToZoom: true }}
      on={{ view: ({ index: shown }) => onView(shown) }}
      controller={{ closeOnBackdropClick: true }}
    />
  );
}
