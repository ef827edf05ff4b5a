import { useId, useRef, useState } from "react";
import type { MediaValue } from "~/drops-desk/form-values";
import { MB, UPLOAD_MAX_BYTES } from "~/media/upload-sizes";

type Kind = "image" | "video";

/** The spec's upload messages (DECISIONS: 'Error al subir la imagen' / 'Error al subir el video'). */
const UPLOAD_FAILED: Record<Kind, string> = {
  image: "Error al subir la imagen",
  video: "Error al subir el video",
};

/**
 * Sends one file to /admin/media for the drop, reporting progress (0–1). XMLHttpRequest, not fetch:
 * only it reports upload progress. Resolves with the stored media or a Spanish message.
 */
export function uploadMedia(
  dropId: string,
  kind: Kind,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<{ ok: true; media: MediaValue } | { ok: false; message: string }> {
  // Said at once, without sending megabytes the server would refuse.
  const limit = UPLOAD_MAX_BYTES[kind] / MB;
  if (file.size > UPLOAD_MAX_BYTES[kind]) {
    return Promise.resolve({
      ok: false,
      message: `${UPLOAD_FAILED[kind]}: ${kind === "image" ? "las imágenes pueden pesar" : "los videos pueden pesar"} hasta ${limit} MB.`,
    });
  }
  return new Promise((resolve) => {
    const body = new FormData();
    body.set("dropId", dropId);
    body.set("kind", kind);
    body.set("file", file);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/admin/media");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const answer = (xhr.response ?? {}) as { id?: string; url?: string; message?: string };
      if (xhr.status === 201 && answer.id && answer.url)
        resolve({ ok: true, media: { id: answer.id, url: answer.url, alt: "" } });
      else {
        const detail = answer.message ?? "";
        resolve({
          ok: false,
          message: detail.startsWith(UPLOAD_FAILED[kind])
            ? detail
            : `${UPLOAD_FAILED[kind]}${detail ? `: ${detail}` : "."}`,
        });
      }
    };
    xhr.onerror = () => resolve({ ok: false, message: `${UPLOAD_FAILED[kind]}: revisa tu conexión.` });
    xhr.send(body);
  });
}

function Progress({ fraction, label }: { fraction: number; label: string }) {
  return (
    <div className="mt-2">
      <progress value={Math.round(fraction * 100)} max={100} aria-label={label} className="h-2 w-full" />
    </div>
  );
}

/**
 * One photo or the video: its preview, a file picker that uploads at once (with progress), and
 * 'Quitar'. The chosen media id travels in a hidden field named `name`.
 */
export function MediaSlot({
  onBusy,
  dropId,
  kind,
  name,
  altName,
  defaultAlt = "",
  label,
  value,
  onChange,
  error,
}: {
  dropId: string;
  kind: Kind;
  name: string;
  /** Photos: the field with what the photo shows, prefilled with `defaultAlt` when it uploads. */
  altName?: string;
  defaultAlt?: string;
  label: string;
  value: MediaValue | null;
  onChange: (media: MediaValue | null) => void;
  error?: string;
  /** Told +1 when an upload starts and −1 when it ends (the form waits before saving). */
  onBusy?: (delta: number) => void;
}) {
  const altId = useId();
  const inputId = useId();
  const errorId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const message = failed ?? error;
  async function choose(file: File | undefined) {
    if (!file) return;
    setFailed(null);
    setProgress(0);
    onBusy?.(1);
    const result = await uploadMedia(dropId, kind, file, setProgress).finally(() => onBusy?.(-1));
    setProgress(null);
    if (result.ok) onChange({ ...result.media, alt: defaultAlt });
    else setFailed(result.message);
  }
  return (
    <div>
      <input type="hidden" name={name} value={value?.id ?? ""} />
      {altName && value && (
        <div className="mb-2">
          <label htmlFor={altId} className="block text-xs text-ink/75">
            Qué muestra la foto ({label.toLowerCase()})
          </label>
          <input
            id={altId}
            name={altName}
            value={value.alt}
            maxLength={200}
            onChange={(e) => onChange({ ...value, alt: e.target.value })}
            className="mt-1 min-h-11 w-full rounded border border-ink/30 bg-white px-3 text-sm"
          />
        </div>
      )}
      <p className="text-sm font-medium">{label}</p>
      {value &&
        (kind === "image" ? (
          <img src={value.url} alt={label} className="mt-2 h-28 w-28 rounded object-cover" />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: a preview of the owner's own upload, without sound to caption
          <video src={value.url} controls preload="metadata" className="mt-2 h-28 rounded" />
        ))}
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <label
          htmlFor={inputId}
          className="inline-flex min-h-11 cursor-pointer items-center rounded-full border border-ink px-4 text-sm focus-within:ring-2"
        >
          {value ? "Cambiar" : kind === "image" ? "Subir imagen" : "Subir video"}
          <input
            id={inputId}
            type="file"
            accept={
              kind === "image"
                ? "image/jpeg,image/png,image/webp,image/avif,image/gif"
                : "video/mp4,video/webm"
            }
            className="sr-only"
            aria-describedby={message ? errorId : undefined}
            aria-invalid={message ? true : undefined}
            onChange={(e) => {
              void choose(e.target.files?.[0]);
              e.target.value = "";
            }}
          />
        </label>
        {value && (
          <button type="button" onClick={() => onChange(null)} className="min-h-11 px-2 text-sm underline">
            Quitar
          </button>
        )}
      </div>
      {progress !== null && <Progress fraction={progress} label={`Subiendo: ${label}`} />}
      {/* A failed upload is news (an alert); the form's own refusal is already announced above it. */}
      {message && (
        <p id={errorId} role={failed ? "alert" : undefined} className="mt-1 text-sm text-red-800">
          {message}
        </p>
      )}
    </div>
  );
}

/**
 * A product's extra photos (up to `max`): several can be dropped or picked at once, each uploads
 * with its own progress; they can be moved and removed. Ids travel as repeated hidden fields.
 */
export function ExtraImages({
  onBusy,
  dropId,
  name,
  altName,
  defaultAlt,
  label,
  values,
  onChange,
  max,
}: {
  dropId: string;
  name: string;
  /** The repeated field with what each photo shows, in the photos' order. */
  altName: string;
  defaultAlt: string;
  label: string;
  values: MediaValue[];
  onChange: (values: MediaValue[]) => void;
  max: number;
  onBusy?: (delta: number) => void;
}) {
  const inputId = useId();
  const [uploads, setUploads] = useState<{ key: string; name: string; fraction: number }[]>([]);
  const [failed, setFailed] = useState<string[]>([]);
  const [over, setOver] = useState(false);
  const latest = useRef(values);
  latest.current = values;
  async function add(files: File[]) {
    const room = Math.max(0, max - latest.current.length - uploads.length);
    const chosen = files.slice(0, room);
    setFailed(files.length > room ? [`Solo caben ${max} imágenes extra por producto.`] : []);
    await Promise.all(
      chosen.map(async (file, i) => {
        const key = `${Date.now()}-${i}-${file.name}`;
        setUploads((u) => [...u, { key, name: file.name, fraction: 0 }]);
        onBusy?.(1);
        const result = await uploadMedia(dropId, "image", file, (fraction) =>
          setUploads((u) => u.map((x) => (x.key === key ? { ...x, fraction } : x))),
        ).finally(() => onBusy?.(-1));
        setUploads((u) => u.filter((x) => x.key !== key));
        if (result.ok) {
          latest.current = [...latest.current, { ...result.media, alt: defaultAlt }];
          onChange(latest.current);
        } else setFailed((f) => [...f, `${file.name}: ${result.message}`]);
      }),
    );
  }
  const move = (from: number, to: number) => {
    const next = [...values];
    const [item] = next.splice(from, 1);
    if (item) next.splice(to, 0, item);
    onChange(next);
  };
  return (
    <div>
      <p className="text-sm font-medium">{label}</p>
      {values.map((v) => (
        <input key={v.id} type="hidden" name={name} value={v.id} />
      ))}
      {values.length > 0 && (
        <ol className="mt-2 flex flex-wrap gap-3">
          {values.map((v, i) => (
            <li key={v.id} className="flex flex-col items-center gap-1">
              <img src={v.url} alt={`${label} ${i + 1}`} className="h-20 w-20 rounded object-cover" />
              <input
                name={altName}
                value={v.alt}
                maxLength={200}
                aria-label={`Qué muestra la imagen extra ${i + 1}`}
                onChange={(e) =>
                  onChange(values.map((x) => (x.id === v.id ? { ...x, alt: e.target.value } : x)))
                }
                className="min-h-11 w-32 rounded border border-ink/30 bg-white px-2 text-xs"
              />
              <div className="flex">
                <button
                  type="button"
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                  aria-label={`Mover la imagen ${i + 1} antes`}
                  className="min-h-11 min-w-11 disabled:opacity-30"
                >
                  ←
                </button>
                <button
                  type="button"
                  onClick={() => onChange(values.filter((x) => x.id !== v.id))}
                  aria-label={`Quitar la imagen ${i + 1}`}
                  className="min-h-11 min-w-11"
                >
                  ✕
                </button>
                <button
                  type="button"
                  disabled={i === values.length - 1}
                  onClick={() => move(i, i + 1)}
                  aria-label={`Mover la imagen ${i + 1} después`}
                  className="min-h-11 min-w-11 disabled:opacity-30"
                >
                  →
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      {values.length + uploads.length < max && (
        <label
          htmlFor={inputId}
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            void add([...e.dataTransfer.files]);
          }}
          className={`mt-2 flex min-h-16 cursor-pointer items-center justify-center rounded-lg border-2 border-dashed px-4 text-center text-sm focus-within:ring-2 focus-within:ring-gold-700 ${
            over ? "border-gold-600 bg-sand" : "border-ink/30"
          }`}
        >
          Arrastra aquí fotos o elige varias (quedan {max - values.length - uploads.length})
          <input
            id={inputId}
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            className="sr-only"
            onChange={(e) => {
              void add([...(e.target.files ?? [])]);
              e.target.value = "";
            }}
          />
        </label>
      )}
      {uploads.map((u) => (
        <Progress key={u.key} fraction={u.fraction} label={`Subiendo ${u.name}`} />
      ))}
      {failed.map((f) => (
        <p key={f} role="alert" className="mt-1 text-sm text-red-800">
          {f}
        </p>
      ))}
    </div>
  );
}
