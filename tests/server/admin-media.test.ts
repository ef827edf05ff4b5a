import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "~/db/database.server";
import { newId } from "~/lib/ids";
import { signInAdmin } from "../support/admin-http";
import { describeEachDatabase, sqliteHarness } from "../support/databases";
import { startS3Server } from "../support/s3-server";
import { type RunningServer, startServer } from "../support/server-process";

vi.setConfig({ testTimeout: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "shop-admin-media-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const EVIL = "https://evil.example";
const MB = 1024 * 1024;
const NOT_IMAGE = "Error al subir la imagen: el archivo no es una imagen válida.";
const NOT_VIDEO = "Error al subir el video: solo se aceptan videos MP4 o WebM.";
const IMAGE_TOO_LARGE = "El archivo pesa demasiado: las imágenes pueden pesar hasta 20 MB.";

/** A real 64×48 HEIC photo (made with libheif's heif-enc): sharp reads its header, cannot decode it. */
const HEIC = Buffer.from(
  "AAAAHGZ0eXBoZWljAAAAAG1pZjFoZWljbWlhZgAAAa1tZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAACAAAAEGlkYXQAAAAAAEAAMAAAADhpbG9jAQAAAERAAAIAAQAAAAAAAAHRAAEAAAAAAAAAGAACAAEAAAAAAAAAAQAAAAAAAAAIAAAAOGlpbmYAAAAAAAIAAAAVaW5mZQIAAAEAAQAAaHZjMQAAAAAVaW5mZQIAAAAAAgAAZ3JpZAAAAADYaXBycAAAALZpcGNvAAAAdmh2Y0MBA3AAAAAAAAAAAAAe8AD8/fj4AAAPAyAAAQAYQAEMAf//A3AAAAMAkAAAAwAAAwAeugJAIQABACpCAQEDcAAAAwCQAAADAAADAB6gIIEFlurkprm4EBAwIAAAAwAgAAADACEiAAEABkQBwXPAiQAAABRpc3BlAAAAAAAAAEAAAABAAAAAFGlzcGUAAAAAAAAAQAAAADAAAAAQcGl4aQAAAAADCAgIAAAAGmlwbWEAAAAAAAAAAgABAoECAAICA4QAAAAaaXJlZgAAAAAAAAAOZGltZwACAAEAAQAAACBtZGF0AAAAFCgBrxmA70mlv+/X+pVv87rWmPm4",
  "base64",
);

/** The smallest thing a browser would call an MP4: an 'ftyp' box, then an 'mdat' box of bytes. */
function mp4(payloadBytes = 200_000): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "latin1");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "latin1");
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(8 + payloadBytes, 0);
  mdat.write("mdat", 4, "latin1");
  return Buffer.concat([ftyp, mdat, crypto.randomBytes(payloadBytes)]);
}

/** A WebM's EBML header (DocType 'webm') followed by bytes. */
function webm(payloadBytes = 50_000): Buffer {
  const header = Buffer.from(
    "1a45dfa39f4286810142f7810142f2810442f381084282847765626d4287810242858102",
    "hex",
  );
  return Buffer.concat([header, crypto.randomBytes(payloadBytes)]);
}

async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#b08d57",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .jpeg()
    .toBuffer();
}

function form(fields: Record<string, string>, file?: { name: string; type: string; body: Buffer }): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file) body.append("file", new File([new Uint8Array(file.body)], file.name, { type: file.type }));
  return body;
}

/** VmRSS of a process, in bytes. */
function rss(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0) * 1024;
}

interface RawAnswer {
  status: number | null;
  body: string;
  /** Bytes of the body written when the answer (or the end) came. */
  sent: number;
  error: string | null;
}

/**
 * A POST written chunk by chunk (chunked unless `headers` has Content-Length), stopping as soon as
 * the server answers: what a browser's upload looks like to the server, with a bounded loop.
 */
function rawPost(
  url: string,
  headers: Record<string, string | number>,
  chunks: Iterable<Buffer>,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const request = http.request(url, { method: "POST", headers });
    let answer: RawAnswer = { status: null, body: "", sent: 0, error: null };
    let answered = false;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve(answer);
    };
    request.on("response", (response) => {
      answered = true;
      answer = { ...answer, status: response.statusCode ?? null };
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        answer.body += text;
      });
      response.on("end", settle);
      response.on("error", (error) => {
        answer.error = error.message;
        settle();
      });
    });
    request.on("error", (error) => {
      answer.error = (error as NodeJS.ErrnoException).code ?? error.message;
      if (!answered) settle();
    });
    void (async () => {
      for (const chunk of chunks) {
        if (answered || settled) return;
        const more = request.write(chunk);
        answer.sent += chunk.length;
        if (!more) {
          await new Promise<void>((next) => {
            const done = () => {
              request.off("drain", done);
              request.off("close", done);
              request.off("response", done);
              next();
            };
            request.once("drain", done);
            request.once("close", done);
            request.once("response", done);
          });
        }
      }
      if (!answered && !settled) request.end();
    })();
  });
}

/** A multipart body whose file part is `fileBytes` long, made as it is written (64 KB at a time). */
function* multipartChunks(
  boundary: string,
  fields: Record<string, string>,
  fileBytes: number,
  fileHead: Buffer = Buffer.alloc(0),
) {
  let head = "";
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="grande.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
  yield Buffer.from(head);
  yield fileHead;
  const block = crypto.randomBytes(64 * 1024);
  for (let left = fileBytes - fileHead.length; left > 0; left -= block.length) {
    yield block.subarray(0, Math.min(left, block.length));
  }
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

function multipartLength(boundary: string, fields: Record<string, string>, fileBytes: number): number {
  let total = 0;
  for (const chunk of multipartChunks(boundary, fields, 0)) total += chunk.length;
  return total + fileBytes;
}

describeEachDatabase("media uploads through HTTP", (harness) => {
  let server: RunningServer;
  let database: Database;
  let dataDir: string;
  /** The server's temporary folder (TMPDIR), where photos wait while they are checked. */
  let serverTmp: string;
  let cookie = "";

  beforeAll(async () => {
    database = await harness.fresh();
    dataDir = path.join(tmp, harness.dialect);
    serverTmp = path.join(tmp, `${harness.dialect}-tmp`);
    fs.mkdirSync(serverTmp, { recursive: true });
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      TMPDIR: serverTmp,
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function upload(body: FormData | URLSearchParams, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}/admin/media`, {
      method: "POST",
      headers: { origin: server.url, cookie, ...headers },
      body,
    });
    const text = await response.text();
    const json = (() => {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        return { text };
      }
    })();
    return { status: response.status, json };
  }

  /** Files stored for a drop (local storage under DATA_DIR/media). */
  function storedFiles(dropId: string): string[] {
    const dir = path.join(dataDir, "media", "drops", dropId);
    return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  }

  async function mediaRows(dropId: string) {
    return database.db.selectFrom("media").selectAll().where("drop_id", "=", dropId).execute();
  }

  /**
   * Nothing stored for the drop, and no upload's temporary file left: removed once its request
   * ends, which may be just after a refusal was answered (early, before the body was all sent).
   */
  async function expectNothingStored(dropId: string) {
    expect(storedFiles(dropId)).toEqual([]);
    await vi.waitFor(() => expect(fs.readdirSync(serverTmp)).toEqual([]), { timeout: 5_000 });
  }

  it("stores a photo as WebP widths that are served at the returned url, with its JPEG copies and its media row", async () => {
    const dropId = newId();
    const photo = await jpeg(1200, 800);
    const { status, json } = await upload(
      form({ dropId, kind: "image" }, { name: "foto.jpg", type: "image/jpeg", body: photo }),
    );
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json).toMatchObject({ kind: "image", width: 1200, height: 800 });
    const id = String(json.id);
    expect(json.url).toBe(`/media/drops/${dropId}/${id}-960.webp`);

    const served = await fetch(`${server.url}${json.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 960, height: 640 });

    // And JPEG copies, for link previews (WhatsApp) and e-mails (classic Outlook), which show no
    // WebP: served as JPEG, to other sites too (a webmail).
    expect(storedFiles(dropId)).toEqual([
      `${id}-480.jpg`,
      `${id}-480.webp`,
      `${id}-960.jpg`,
      `${id}-960.webp`,
    ]);
    const copy = await fetch(`${server.url}/media/drops/${dropId}/${id}-960.jpg`);
    expect(copy.status).toBe(200);
    expect(copy.headers.get("content-type")).toBe("image/jpeg");
    expect(copy.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).toMatchObject({
      format: "jpeg",
      width: 960,
      height: 640,
    });
    const [row, ...others] = await mediaRows(dropId);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      id,
      drop_id: dropId,
      kind: "image",
      key: `drops/${dropId}/${id}`,
      width: 1200,
      height: 800,
      widths: "480,960",
      jpeg_widths: "480,960",
      mime: "image/webp",
    });
    expect(fs.readdirSync(serverTmp)).toEqual([]);
  });

  it("stores an MP4 as uploaded, served at the returned url, with a video row", async () => {
    const dropId = newId();
    const video = mp4();
    const { status, json } = await upload(
      form({ dropId, kind: "video" }, { name: "proceso.mp4", type: "video/mp4", body: video }),
    );
    expect(status, JSON.stringify(json)).toBe(201);
    const id = String(json.id);
    expect(json).toEqual({ id, kind: "video", url: `/media/drops/${dropId}/${id}.mp4`, width: 0, height: 0 });

    const served = await fetch(`${server.url}${json.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await served.arrayBuffer()).equals(video)).toBe(true);

    expect(await mediaRows(dropId)).toMatchObject([
      {
        id,
        kind: "video",
        key: `drops/${dropId}/${id}.mp4`,
        width: 0,
        height: 0,
        widths: "",
        mime: "video/mp4",
      },
    ]);
  });

  // The refusals and limits depend on no database: run once.
  if (harness.dialect !== "sqlite") return;

  it("stores a WebM as .webm", async () => {
    const dropId = newId();
    const { status, json } = await upload(
      form({ dropId, kind: "video" }, { name: "clip.webm", type: "video/webm", body: webm() }),
    );
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json.url).toBe(`/media/drops/${dropId}/${json.id}.webm`);
    expect(await mediaRows(dropId)).toMatchObject([{ kind: "video", mime: "video/webm" }]);
  });

  it("takes an AVIF photo (HEIF too, but not HEIC)", async () => {
    const dropId = newId();
    const avif = await sharp({ create: { width: 600, height: 400, channels: 3, background: "#b08d57" } })
      .avif()
      .toBuffer();
    const { status, json } = await upload(
      form({ dropId, kind: "image" }, { name: "foto.avif", type: "image/avif", body: avif }),
    );
    expect(status, JSON.stringify(json)).toBe(201);
    expect(json).toMatchObject({ kind: "image", width: 600, height: 400 });
    expect(storedFiles(dropId)).toEqual([`${json.id}-480.jpg`, `${json.id}-480.webp`]);
  });

  it("refuses a text file named foto.jpg, storing nothing", async () => {
    const dropId = newId();
    const { status, json } = await upload(
      form(
        { dropId, kind: "image" },
        { name: "foto.jpg", type: "image/jpeg", body: Buffer.from("esto no es una foto\n".repeat(50)) },
      ),
    );
    expect(status).toBe(400);
    expect(json).toEqual({ message: NOT_IMAGE });
    await expectNothingStored(dropId);
    expect(await mediaRows(dropId)).toEqual([]);
  });

  it("refuses a HEIC photo with its own message", async () => {
    const dropId = newId();
    const { status, json } = await upload(
      form({ dropId, kind: "image" }, { name: "IMG_0001.HEIC", type: "image/heic", body: HEIC }),
    );
    expect(status).toBe(400);
    expect(json).toEqual({ message: "Las fotos HEIC no se pueden usar: guárdala como JPG o PNG." });
    await expectNothingStored(dropId);
  });

  it("refuses a pixel bomb (a long strip, small as a file) from its size alone, saying why", async () => {
    const dropId = newId();
    const strip = await sharp({ create: { width: 200, height: 5_000, channels: 3, background: "#c9a227" } })
      .png()
      .toBuffer();
    const { status, json } = await upload(
      form({ dropId, kind: "image" }, { name: "tira.png", type: "image/png", body: strip }),
    );
    expect(status).toBe(400);
    expect(json).toEqual({
      message:
        "Error al subir la imagen: la imagen es demasiado grande o demasiado alargada para la tienda: usa una foto de proporciones normales (una foto de teléfono en JPG sirve tal cual).",
    });
    await expectNothingStored(dropId);
  });

  it("refuses as a video a photo, a HEIC and a Matroska file", async () => {
    const dropId = newId();
    const mkv = Buffer.from(webm().toString("latin1").replace("webm", "mkvx"), "latin1");
    for (const body of [await jpeg(64, 64), HEIC, mkv]) {
      const { status, json } = await upload(
        form({ dropId, kind: "video" }, { name: "video.mp4", type: "video/mp4", body }),
      );
      expect(status).toBe(400);
      expect(json).toEqual({ message: NOT_VIDEO });
    }
    await expectNothingStored(dropId);
    expect(await mediaRows(dropId)).toEqual([]);
  });

  it("answers 400 with a Spanish message to malformed uploads", async () => {
    const dropId = newId();
    const photo = { name: "foto.jpg", type: "image/jpeg", body: await jpeg(64, 64) };
    const cases: [string, FormData | URLSearchParams, Record<string, string>?][] = [
      ["no file", form({ dropId, kind: "image" })],
      ["empty file", form({ dropId, kind: "image" }, { ...photo, body: Buffer.alloc(0) })],
      ["bad drop id", form({ dropId: "../../etc", kind: "image" }, photo)],
      ["unknown kind", form({ dropId, kind: "audio" }, photo)],
      [
        "file before the fields",
        (() => {
          const body = new FormData();
          body.append("file", new File([new Uint8Array(photo.body)], photo.name, { type: photo.type }));
          body.append("dropId", dropId);
          body.append("kind", "image");
          return body;
        })(),
      ],
      ["not multipart", new URLSearchParams({ dropId, kind: "image", file: "x" })],
      ["no boundary", form({ dropId, kind: "image" }, photo), { "content-type": "multipart/form-data" }],
    ];
    for (const [what, body, headers] of cases) {
      const { status, json } = await upload(body, headers);
      expect(status, what).toBe(400);
      expect(String(json.message), what).toMatch(/^Error al subir (la imagen|el video|el archivo): \S/);
    }
    await expectNothingStored(dropId);
    expect(await mediaRows(dropId)).toEqual([]);
  });

  it("refuses without a session (401) and from another site (403), storing nothing", async () => {
    const dropId = newId();
    const photo = await jpeg(200, 100);
    const body = () => form({ dropId, kind: "image" }, { name: "foto.jpg", type: "image/jpeg", body: photo });
    const signedOut = await upload(body(), { cookie: "" });
    expect(signedOut.status).toBe(401);
    expect(signedOut.json).toEqual({ message: "Tu sesión terminó. Inicia sesión de nuevo." });
    const crossSite = await upload(body(), { origin: EVIL });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json).toEqual({ message: "Solicitud no permitida: no viene de la tienda." });
    await expectNothingStored(dropId);
    expect(await mediaRows(dropId)).toEqual([]);
  });

  /**
   * Sends a multipart upload without Content-Length (chunked), sampling the server's resident
   * memory every 50 ms from just before until shortly after.
   */
  async function chunkedUpload(
    kind: "image" | "video",
    dropId: string,
    fileBytes: number,
    fileHead?: Buffer,
  ) {
    const boundary = `----limite${newId(8)}`;
    const pid = server.child.pid ?? 0;
    const before: number[] = [];
    for (let i = 0; i < 5; i++) {
      before.push(rss(pid));
      await new Promise((r) => setTimeout(r, 50));
    }
    const start = Math.max(...before);
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss(pid));
    }, 50);
    const answer = await rawPost(
      `${server.url}/admin/media`,
      { origin: server.url, cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      multipartChunks(boundary, { dropId, kind }, fileBytes, fileHead),
    );
    await new Promise((r) => setTimeout(r, 300));
    clearInterval(sampler);
    peak = Math.max(peak, rss(pid));
    const summary =
      `server RSS ${(start / MB).toFixed(1)} MB before, peak ${(peak / MB).toFixed(1)} MB ` +
      `(+${((peak - start) / MB).toFixed(1)} MB); ${(answer.sent / MB).toFixed(1)} MB sent; ` +
      `answer ${answer.status ?? answer.error}`;
    return { answer, growth: peak - start, summary };
  }

  /** The answer is the 413 with its message; a client may instead see the connection closed. */
  function expectTooLarge(answer: RawAnswer, message: string) {
    if (answer.status !== null) {
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({ message });
    } else {
      expect(answer.error).toMatch(/ECONNRESET|EPIPE|socket hang up/);
    }
  }

  it("refuses a 25 MB photo sent without Content-Length while streaming, in little memory", async ({
    annotate,
  }) => {
    const dropId = newId();
    const { answer, growth, summary } = await chunkedUpload("image", dropId, 25 * MB);
    await annotate(summary);
    expectTooLarge(answer, IMAGE_TOO_LARGE);
    expect(growth).toBeLessThan(50 * MB);
    await expectNothingStored(dropId);
    expect(await mediaRows(dropId)).toEqual([]);
  });

  it("refuses a video past 100 MB while it streams into storage, deleting what was written", async ({
    annotate,
  }) => {
    const dropId = newId();
    const { answer, growth, summary } = await chunkedUpload("video", dropId, 110 * MB, mp4(100));
    await annotate(summary);
    expectTooLarge(answer, "El archivo pesa demasiado: los videos pueden pesar hasta 100 MB.");
    expect(growth).toBeLessThan(50 * MB);
    expect(storedFiles(dropId)).toEqual([]);
    expect(await mediaRows(dropId)).toEqual([]);
  });

  it("leaves nothing behind when the client goes away mid-upload", async () => {
    const dropId = newId();
    const boundary = `----corte${newId(8)}`;
    const request = http.request(`${server.url}/admin/media`, {
      method: "POST",
      headers: { origin: server.url, cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    request.on("error", () => {});
    let sent = 0;
    for (const chunk of multipartChunks(boundary, { dropId, kind: "image" }, 10 * MB)) {
      if (sent > 3 * MB) break;
      request.write(chunk);
      sent += chunk.length;
    }
    await new Promise((r) => setTimeout(r, 200));
    request.destroy();
    await vi.waitFor(() => expect(fs.readdirSync(serverTmp)).toEqual([]), { timeout: 5_000 });
    expect(storedFiles(dropId)).toEqual([]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("refuses a 21 MB photo by its Content-Length without reading it", async () => {
    const dropId = newId();
    const boundary = `----limite${newId(8)}`;
    const fields = { dropId, kind: "image" };
    const length = multipartLength(boundary, fields, 21 * MB);
    const answer = await rawPost(
      `${server.url}/admin/media`,
      {
        origin: server.url,
        cookie,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": length,
      },
      multipartChunks(boundary, fields, 21 * MB),
    );
    expect(answer.status, answer.error ?? "").toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ message: IMAGE_TOO_LARGE });
    // Answered before the body was all sent: a server that read it first would have taken it
    // whole. (How much more the client wrote meanwhile depends on how busy the machine is: the
    // server drains what follows its answer, so that the browser sees it.)
    expect(answer.sent).toBeLessThan(length);
    await expectNothingStored(dropId);
  });

  it("refuses a declared length over the video limit before React Router sees it", async () => {
    const answer = await rawPost(
      `${server.url}/admin/media`,
      {
        origin: server.url,
        cookie,
        "content-type": "multipart/form-data; boundary=x",
        "content-length": 150 * MB,
      },
      [Buffer.from("--x\r\n")],
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      message: "El archivo pesa demasiado: las imágenes pueden pesar hasta 20 MB y los videos hasta 100 MB.",
    });
  });

  it("keeps the 256 KB cap on every other route", async () => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "a@example.com", password: "x".repeat(300 * 1024) }),
    });
    expect(response.status).toBe(413);
  });

  it("still takes uploads after the refusals", async () => {
    const dropId = newId();
    const { status } = await upload(
      form({ dropId, kind: "image" }, { name: "foto.png", type: "image/png", body: await jpeg(300, 200) }),
    );
    expect(status).toBe(201);
    // Its one WebP width and its JPEG copy.
    expect(storedFiles(dropId)).toHaveLength(2);
  });
});

describe("media uploads to S3-compatible storage", () => {
  const cleanups: (() => Promise<void>)[] = [];
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let server: RunningServer;
  let database: Database;
  let cookie = "";

  beforeAll(async () => {
    s3 = await startS3Server();
    const { bucket, endpoint, publicUrl, credentials } = s3.settings;
    const harness = sqliteHarness(cleanups);
    database = await harness.fresh();
    server = await startServer({
      DATA_DIR: path.join(tmp, "s3"),
      DATABASE_URL: harness.lastUrl(),
      DEMO_DATA: "false",
      DEMO_PAYMENTS: "true",
      MEDIA_STORAGE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint ?? "",
      S3_PUBLIC_URL: publicUrl,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: credentials?.accessKeyId ?? "",
      S3_SECRET_ACCESS_KEY: credentials?.secretAccessKey ?? "",
    });
    cookie = await signInAdmin(server, database);
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function upload(body: FormData) {
    const response = await fetch(`${server.url}/admin/media`, {
      method: "POST",
      headers: { origin: server.url, cookie },
      body,
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }

  it("stores a photo's widths and a video streamed in parts in the bucket, served from its address", async () => {
    const dropId = newId();
    const photo = await upload(
      form({ dropId, kind: "image" }, { name: "foto.jpg", type: "image/jpeg", body: await jpeg(500, 500) }),
    );
    expect(photo.status, JSON.stringify(photo.json)).toBe(201);
    expect(photo.json.url).toBe(`${s3.settings.publicUrl}/drops/${dropId}/${photo.json.id}-480.webp`);
    const image = await fetch(String(photo.json.url));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/webp");
    // Its JPEG copy for link previews and e-mails, in the bucket beside it.
    const copy = await fetch(String(photo.json.url).replace(/webp$/, "jpg"));
    expect(copy.status).toBe(200);
    expect(copy.headers.get("content-type")).toBe("image/jpeg");

    // Over the 8 MB part size: the stream goes up as a multipart upload.
    const bytes = mp4(12 * MB);
    const video = await upload(
      form({ dropId, kind: "video" }, { name: "proceso.mp4", type: "video/mp4", body: bytes }),
    );
    expect(video.status, JSON.stringify(video.json)).toBe(201);
    expect(video.json.url).toBe(`${s3.settings.publicUrl}/drops/${dropId}/${video.json.id}.mp4`);
    const served = await fetch(String(video.json.url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);

    const rows = await database.db
      .selectFrom("media")
      .select(["kind", "key"])
      .where("drop_id", "=", dropId)
      .execute();
    expect(rows.map((r) => r.kind).sort()).toEqual(["image", "video"]);
  });
});
