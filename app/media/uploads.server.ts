import os from "node:os";
import type { Db } from "~/db/database.server";
import { isId } from "~/lib/ids";
import { type MultipartUpload, readUploadForm } from "./multipart.server";
import { receiveImage, receiveVideo, type Target } from "./pipeline.server";
import type { MediaStorage } from "./storage.server";
import { type UploadFailure, uploadFailure } from "./upload-failures.server";
import type { UploadKind } from "./upload-sizes";

/*
 * Uploads from the drops admin form: one photo or video per request, for a drop that may not be
 * saved yet (the form picks the drop's id in advance). The body is parsed as it arrives
 * (multipart.server.ts); a photo goes to a temporary file, is checked by its content and
 * re-encoded to WebP; a video is checked by its first bytes and streamed straight into storage
 * (pipeline.server.ts). No HTTP here: failures are reasons (upload-failures.server.ts), which the
 * route turns into statuses.
 */

export interface UploadedMedia {
  id: string;
  kind: UploadKind;
  /** Where a browser fetches it: the largest WebP copy of a photo, the video file itself. */
  url: string;
  /** 0 for a video (not measured). */
  width: number;
  height: number;
}

export type UploadResult = { ok: true; media: UploadedMedia } | UploadFailure;

/**
 * The form's `dropId` and `kind`, which must come before the file in the body (FormData keeps the
 * order fields are appended in): the kind decides the size limit and what is done with the file.
 */
export function checkUploadFields(
  fields: ReadonlyMap<string, string>,
): { ok: true; dropId: string; kind: UploadKind } | UploadFailure {
  const dropId = fields.get("dropId");
  const kind = fields.get("kind");
  if (kind !== undefined && kind !== "image" && kind !== "video") return uploadFailure("tipo_invalido", null);
  const known = kind ?? null;
  if (dropId === undefined) {
    return uploadFailure("destino_invalido", known, "falta la colección (dropId), que va antes del archivo.");
  }
  if (!isId(dropId)) return uploadFailure("destino_invalido", known);
  if (kind === undefined) {
    return uploadFailure(
      "tipo_invalido",
      null,
      "falta el tipo (kind: image o video), que va antes del archivo.",
    );
  }
  return { ok: true, dropId, kind };
}

export interface UploadDeps {
  db: Db;
  storage: MediaStorage;
  /** Where photos wait while they are checked; the system's temporary folder by default. */
  tmpDir?: string;
}

export interface UploadInput extends MultipartUpload {
  now?: Date;
}

/**
 * Receives one upload: multipart/form-data with `dropId` and `kind` (image | video) before `file`.
 * Stores the file under `drops/<dropId>/` and records its `media` row; on any refusal nothing is
 * left behind. The drop row itself is not required (the form uploads before the drop is saved).
 * Errors that are not the upload's fault (storage, database) are thrown.
 */
export async function receiveUpload(deps: UploadDeps, input: UploadInput): Promise<UploadResult> {
  const outcome = await readUploadForm(input, {
    field(name, value) {
      // A bad value is refused at once; a missing one when the file arrives.
      if (name === "kind" && value !== "image" && value !== "video")
        return uploadFailure("tipo_invalido", null);
      if (name === "dropId" && !isId(value)) return uploadFailure("destino_invalido", null);
      return null;
    },
    file(fields, stream) {
      const checked = checkUploadFields(fields);
      if (!checked.ok) return checked;
      const { dropId, kind } = checked;
      const receive = () => {
        const target: Target = {
          storage: deps.storage,
          dropId,
          now: input.now ?? new Date(),
          tmpDir: deps.tmpDir ?? os.tmpdir(),
        };
        return kind === "image" ? receiveImage(target, stream) : receiveVideo(target, stream);
      };
      return { kind, receive };
    },
    noFile(fields) {
      const checked = checkUploadFields(fields);
      return checked.ok ? uploadFailure("sin_archivo", checked.kind) : checked;
    },
    discard: (stored) => deps.storage.deletePrefix(stored.row.key).catch(() => {}),
  });
  if ("ok" in outcome) return outcome;

  const { row, url } = outcome;
  try {
    await deps.db.insertInto("media").values(row).execute();
  } catch (error) {
    await deps.storage.deletePrefix(row.key).catch(() => {});
    throw error;
  }
  return { ok: true, media: { id: row.id, kind: row.kind, url, width: row.width, height: row.height } };
}
