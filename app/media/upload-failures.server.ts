import { HEIC_REFUSED } from "./images.server";
import { MB, UPLOAD_MAX_BYTES, type UploadKind } from "./upload-sizes";

/*
 * Why an upload was refused, and what the owner reads about it. No HTTP here: the route turns the
 * reasons into statuses.
 */

export type UploadReason =
  | "formato_invalido"
  | "incompleto"
  | "destino_invalido"
  | "tipo_invalido"
  | "sin_archivo"
  | "demasiado_grande"
  | "no_es_imagen"
  | "heic"
  | "no_es_video";

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
  const image = `${UPLOAD_MAX_BYTES.image / MB} MB`;
  const video = `${UPLOAD_MAX_BYTES.video / MB} MB`;
  if (kind === "image") return `El archivo pesa demasiado: las imágenes pueden pesar hasta ${image}.`;
  if (kind === "video") return `El archivo pesa demasiado: los videos pueden pesar hasta ${video}.`;
  return `El archivo pesa demasiado: las imágenes pueden pesar hasta ${image} y los videos hasta ${video}.`;
}

export function uploadFailure(reason: UploadReason, kind: UploadKind | null, detail?: string): UploadFailure {
  const failed = kind ? FAILED[kind] : FAILED_ANY;
  const messages: Record<UploadReason, string> = {
    formato_invalido: `${failed}: el formulario no llegó como multipart/form-data.`,
    incompleto: `${failed}: el formulario llegó incompleto o dañado. Inténtalo de nuevo.`,
    destino_invalido: `${failed}: ${detail ?? "la colección no es válida."}`,
    tipo_invalido: `${failed}: ${detail ?? "el tipo debe ser image o video."}`,
    sin_archivo: `${failed}: no llegó ningún archivo.`,
    demasiado_grande: tooLargeMessage(kind),
    no_es_imagen: `${FAILED.image}: ${detail ?? "el archivo no es una imagen válida."}`,
    heic: HEIC_REFUSED,
    no_es_video: `${FAILED.video}: solo se aceptan videos MP4 o WebM.`,
  };
  return { ok: false, reason, message: messages[reason] };
}
