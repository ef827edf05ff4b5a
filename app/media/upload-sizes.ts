/** What may be uploaded (shared by the upload route and the form that checks a file before sending it). */
export type UploadKind = "image" | "video";

export const MB = 1024 * 1024;
/** The largest file of each kind (in MiB: a file the phone or computer shows as "20 MB" fits). */
export const UPLOAD_MAX_BYTES: Readonly<Record<UploadKind, number>> = { image: 20 * MB, video: 100 * MB };
