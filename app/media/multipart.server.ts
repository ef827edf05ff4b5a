import { type Readable, Transform, type Writable } from "node:stream";
// @fastify/busboy, the maintained fork of busboy (the parser under multer; no dependencies, its own
// types), hands each file over as a Node stream with backpressure while the body arrives, so an
// upload is never held in memory whole. @remix-run/form-data-parser was ruled out: its multipart
// parser collects each part's bytes in memory before handing the part over.
import Busboy, { type BusboyInstance } from "@fastify/busboy";
import { type UploadFailure, uploadFailure } from "./upload-failures.server";
import { UPLOAD_MAX_BYTES, type UploadKind } from "./upload-sizes";

/*
 * An upload's body, parsed as it arrives: fields first, then one file handed over as a stream.
 * Sizes are counted while reading, whatever Content-Length says; the kind of file, once known,
 * sets the cap. What the fields mean and what is done with the file is the caller's.
 */

/** Room for the form's other fields and the multipart boundaries around the file. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;
/** The longest body an upload may have (a video at its limit); a longer Content-Length is refused unread. */
export const MAX_UPLOAD_BODY_BYTES = UPLOAD_MAX_BYTES.video + FORM_OVERHEAD_BYTES;

/** A file past its limit, raised by the byte counter while it streams. */
export class UploadTooLarge extends Error {}
/** The upload was given up on (a refusal decided elsewhere): the file's stream is ended with this. */
class UploadStopped extends Error {}

/** Passes bytes through until more than `limit` have gone by, then fails with UploadTooLarge. */
export function capBytes(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(new UploadTooLarge());
      else callback(null, chunk);
    },
  });
}

/** Reads the first `bytes` bytes (or all, if fewer) and leaves the stream paused with them put back. */
export function peek(stream: Readable, bytes: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size < bytes) return;
      stream.pause();
      cleanup();
      const head = Buffer.concat(chunks);
      stream.unshift(head);
      resolve({ head, ended: false });
    };
    const onEnd = () => {
      cleanup();
      resolve({ head: Buffer.concat(chunks), ended: true });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
  });
}

/**
 * Writes the request body into the multipart parser as it arrives, with backpressure, counting
 * bytes against `limit()` (the total a body may have: it shrinks once the kind is known). It never
 * cancels the body (that would destroy the connection before the answer is sent): when stopped it
 * simply reads no more, and the server drains or closes the connection after answering.
 */
function feedBody(body: ReadableStream<Uint8Array>, sink: Writable, limit: () => number) {
  const reader = body.getReader();
  let stopped = false;
  let wake: (() => void) | null = null;
  const done = (async (): Promise<"ended" | "too-large" | "broken" | "stopped"> => {
    let total = 0;
    while (!stopped) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        return stopped ? "stopped" : "broken";
      }
      if (stopped) break;
      if (chunk.done) {
        sink.end();
        return "ended";
      }
      total += chunk.value.byteLength;
      if (total > limit()) return "too-large";
      const bytes = Buffer.from(chunk.value.buffer, chunk.value.byteOffset, chunk.value.byteLength);
      if (!sink.write(bytes)) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          sink.once("drain", resolve);
        });
        wake = null;
      }
    }
    return "stopped";
  })();
  return {
    done,
    stop() {
      stopped = true;
      wake?.();
    },
  };
}

export interface MultipartUpload {
  /** The request's Content-Type (multipart/form-data with its boundary). */
  contentType: string | null;
  /** The declared length, null when absent (chunked). Only a hint: the bytes are counted anyway. */
  contentLength: number | null;
  body: ReadableStream<Uint8Array> | null;
}

/** What the receiver of one upload decides as its form arrives. `T`, a file received, has no `ok`. */
export interface UploadForm<T extends object> {
  /** A field's first value (later ones are ignored): a refusal stops the reading at once. */
  field(name: string, value: string): UploadFailure | null;
  /**
   * The part named `file`, with the fields that came before it: a refusal, or its kind (which caps
   * the body from here on) and the work that receives its stream.
   */
  file(
    fields: ReadonlyMap<string, string>,
    stream: Readable,
  ): UploadFailure | { kind: UploadKind; receive: () => Promise<T | UploadFailure> };
  /** The body ended without the file. */
  noFile(fields: ReadonlyMap<string, string>): UploadFailure;
  /** Removes what a file given up on got to store. */
  discard(received: T): Promise<void>;
}

function isFailure(outcome: object): outcome is UploadFailure {
  return "ok" in outcome;
}

/**
 * Reads one upload's multipart body: its fields, then its one file, received as it streams. The
 * first refusal wins, from the form (`form`), the size caps or a broken body: reading stops, the
 * file being received is abandoned and whatever it got to store is discarded before answering.
 * Errors that are not the upload's fault (storage, database) are thrown.
 */
export async function readUploadForm<T extends object>(
  input: MultipartUpload,
  form: UploadForm<T>,
): Promise<T | UploadFailure> {
  const contentType = input.contentType ?? "";
  if (!input.body || !/^multipart\/form-data\s*;/i.test(contentType)) {
    return uploadFailure("formato_invalido", null);
  }
  if (input.contentLength !== null && input.contentLength > MAX_UPLOAD_BODY_BYTES) {
    return uploadFailure("demasiado_grande", null);
  }
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: { fieldNameSize: 100, fieldSize: 1024, fields: 10, parts: 20, headerPairs: 20 },
    });
  } catch {
    return uploadFailure("formato_invalido", null);
  }

  const fields = new Map<string, string>();
  // Set from the parser's callbacks; an object so that the checks after `await` read them afresh.
  const state: {
    kind: UploadKind | null;
    file: Readable | null;
    task: Promise<T | UploadFailure> | null;
    failure: UploadFailure | null;
  } = { kind: null, file: null, task: null, failure: null };
  let announceFailure: (failure: UploadFailure) => void = () => {};
  const failed = new Promise<UploadFailure>((resolve) => {
    announceFailure = resolve;
  });
  const feeder = feedBody(input.body, parser, () =>
    state.kind ? UPLOAD_MAX_BYTES[state.kind] + FORM_OVERHEAD_BYTES : MAX_UPLOAD_BODY_BYTES,
  );
  /** The first refusal wins: reading stops and the file being received is abandoned. */
  const fail = (failure: UploadFailure) => {
    if (state.failure) return;
    state.failure = failure;
    feeder.stop();
    state.file?.destroy(new UploadStopped());
    announceFailure(failure);
  };

  const parsed = new Promise<void>((resolve) => parser.on("finish", resolve));
  parser.on("error", () => fail(uploadFailure("incompleto", state.kind)));
  parser.on("field", (name, value) => {
    if (fields.has(name)) return; // the first value counts
    fields.set(name, value);
    const refusal = form.field(name, value);
    if (refusal) fail(refusal);
  });
  parser.on("file", (name, stream) => {
    // A file given up on is ended with an error (or the parser ends it, cut short): each consumer
    // handles it in its own way, and one left unread has none.
    stream.on("error", () => {});
    if (state.task || state.failure || name !== "file") {
      stream.resume(); // not the one file expected: thrown away (the body's size is still capped)
      return;
    }
    const accepted = form.file(fields, stream);
    if (isFailure(accepted)) {
      stream.resume();
      fail(accepted);
      return;
    }
    const kind = accepted.kind;
    state.kind = kind;
    if (input.contentLength !== null && input.contentLength > UPLOAD_MAX_BYTES[kind] + FORM_OVERHEAD_BYTES) {
      stream.resume();
      fail(uploadFailure("demasiado_grande", kind)); // told by Content-Length: the file is not read
      return;
    }
    state.file = stream;
    const task = accepted.receive();
    state.task = task;
    task.then(
      (result) => {
        if (isFailure(result)) fail(result);
      },
      () => {}, // handled where the task is awaited
    );
  });
  void feeder.done.then((outcome) => {
    if (outcome === "too-large") fail(uploadFailure("demasiado_grande", state.kind));
    else if (outcome === "broken") fail(uploadFailure("incompleto", state.kind));
  });

  const completion = (async (): Promise<T | UploadFailure> => {
    await parsed;
    if (state.task) return state.task;
    return form.noFile(fields);
  })();

  let outcome: T | UploadFailure;
  try {
    outcome = await Promise.race([failed, completion]);
  } catch (error) {
    // A file stream ended by a refusal fails too; the refusal is the answer.
    if (!state.failure) {
      feeder.stop();
      throw error;
    }
    outcome = state.failure;
  }
  if (state.failure) outcome = state.failure;
  if (isFailure(outcome)) {
    // Whatever the abandoned file got to store is removed before answering.
    const abandoned = await state.task?.catch(() => null);
    if (abandoned && !isFailure(abandoned)) await form.discard(abandoned);
  }
  return outcome;
}
