import { HEIC_REFUSED } from "./images.server";
import { MB, UPLOAD_LIMITS, type UploadKind } from "./upload-limits";

/*
 * Why an upload was refused, and what the owner reads about it. No HTTP here: the route turns the
 * reasons into statuses.
 */

export type UploadReason =
  | "not-multipart"
  | "malformed"
  | "bad-drop"
  | "bad-kind"
  | "no-file"
  | "too-large"
  | "not-image"
  | "heic"
  | "not-video";

export interface UploadFailure {
  ok: false;
  reason: UploadReason;
  message: string;
}

const FAILED: Record<UploadKind, string> = {
  image: "Error al subir la imagen",
  video: "Error al subir el video",
};
const FAILED_ANY = "Error al subir el archivo";

/** The refusal of a file over its kind's limit (`null`: the kind is not known yet). */
export function tooLargeMessage(kind: UploadKind | null): string {
  const image = `${UPLOAD_LIMITS.image / MB} MB`;
  const video = `${UPLOAD_LIMITS.video / MB} MB`;
  if (kind === "image") return `El archivo pesa demasiado: las imágenes pueden pesar hasta ${image}.`;
  if (kind === "video") return `El archivo pesa demasiado: los videos pueden pesar hasta ${video}.`;
  return `El archivo pesa demasiado: las imágenes pueden pesar hasta ${image} y los videos hasta ${video}.`;
}

export function uploadFailure(reason: UploadReason, kind: UploadKind | null, detail?: string): UploadFailure {
  const failed = kind ? FAILED[kind] : FAILED_ANY;
  const messages: Record<UploadReason, string> = {
    "not-multipart": `${failed}: el formulario no llegó como multipart/form-data.`,
    malformed: `${failed}: el formulario llegó incompleto o dañado. Inténtalo de nuevo.`,
    "bad-drop": `${failed}: ${detail ?? "la colección no es válida."}`,
    "bad-kind": `${failed}: ${detail ?? "el tipo debe ser image o video."}`,
    "no-file": `${failed}: no llegó ningún archivo.`,
    "too-large": tooLargeMessage(kind),
    "not-image": `${FAILED.image}: el archivo no es una imagen válida.`,
    heic: HEIC_REFUSED,
    "not-video": `${FAILED.video}: solo se aceptan videos MP4 o WebM.`,
  };
  return { ok: false, reason, message: messages[reason] };
}
