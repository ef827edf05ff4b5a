import { IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from "node:http";
import { Socket } from "node:net";
import { Writable } from "node:stream";

/*
 * A fixed header list written as one block of text made once (decision 12). Node's writeHead
 * checks every header's name and value and joins them anew on every answer: for a stored page's
 * fifteen headers, its Content-Security-Policy a kilobyte long, that was about a tenth of a hit's
 * cost, and about as much of a checkout's answer on drop day. Here the list is checked and joined
 * once (when the entry is stored; when the shop's settings change); each answer asks writeHead for
 * its Content-Length and its own few headers only, so Node still decides everything
 * that depends on the connection (keep-alive, Connection, Date) by its own rules, and the block
 * goes in right after the status line.
 *
 * That last step rewrites `res._header`, the head Node has made and not yet sent. It is not a
 * documented property, so whether Node sends it as expected is checked once per process
 * (`blockWorks`), and without it every answer is written by writeHead from the whole list, as before.
 */

/** Headers Node reads as it writes a head (keep-alive, framing, Date): never put in a block. */
const NODE_READS = new Set([
  "connection",
  "content-length",
  "transfer-encoding",
  "date",
  "expect",
  "trailer",
  "keep-alive",
]);

export interface HeaderBlock {
  /** The list as writeHead takes it (name, value…). */
  readonly list: readonly string[];
  /** The same as "Name: value\r\n" lines. */
  readonly text: string;
  /** The last head Node made around this block and that head with the block in it. */
  made: string;
  withBlock: string;
}

/**
 * A block from a flat header list (name, value, name, value…). Throws, as writeHead would, for a
 * name or value Node refuses, and for a header Node itself reads as it writes a head.
 */
export function headerBlock(list: readonly string[]): HeaderBlock {
  if (list.length % 2 !== 0) throw new Error("A header list is name, value, name, value…");
  let text = "";
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i] ?? "";
    const value = list[i + 1] ?? "";
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (NODE_READS.has(name.toLowerCase())) throw new Error(`${name} is Node's to write, not a block's`);
    text += `${name}: ${value}\r\n`;
  }
  return { list: [...list], text, made: "", withBlock: "" };
}

type Head = ServerResponse & { _header?: unknown };

/**
 * Writes the head of an answer: `status`, the block's headers, then `rest` (its Content-Length,
 * which it must have, and the few headers of this answer alone, e.g. X-Request-Id, or
 * Connection: close while the server stops), as writeHead(status, block.list.concat(rest))
 * would; `res.end(body)` then sends it with the body. For answers nothing has called setHeader
 * on (the front doors'): writeHead would merge such a header with the list, the block would not.
 */
export function writeBlockHead(
  res: ServerResponse,
  status: number,
  block: HeaderBlock,
  rest: readonly string[],
): void {
  if (!blockWorks) {
    res.writeHead(status, block.list.concat(rest));
    return;
  }
  res.writeHead(status, rest as string[]);
  const made = (res as Head)._header as string;
  // The same head as the last answer's (same second, same kind of connection): its text again.
  if (made !== block.made) {
    block.made = made;
    block.withBlock = withLines(made, block.text);
  }
  (res as Head)._header = block.withBlock;
}

/** A head Node made, with `lines` right after its status line. */
function withLines(made: string, lines: string): string {
  const afterStatus = made.indexOf("\r\n") + 2;
  return made.slice(0, afterStatus) + lines + made.slice(afterStatus);
}

/**
 * Whether a head rewritten this way is what this Node sends: an answer is written to a stand-in
 * socket once per process, with a header spliced in as `writeBlockHead` does, and what reached the
 * socket is read back.
 */
function headIsRewritable(): boolean {
  try {
    const req = new IncomingMessage(new Socket());
    req.method = "GET";
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const res = new ServerResponse(req) as Head;
    let sent = "";
    const socket = new Writable({
      decodeStrings: false,
      write(chunk: Buffer | string, _encoding, done) {
        sent += typeof chunk === "string" ? chunk : chunk.toString("latin1");
        done();
      },
    });
    res.assignSocket(socket as unknown as Socket);
    res.writeHead(200, ["Content-Length", "1"]);
    const made = res._header;
    if (typeof made !== "string" || !made.startsWith("HTTP/1.1 200 OK\r\n")) return false;
    res._header = withLines(made, "X-Block: b\r\n");
    res.end("x");
    return (
      sent.startsWith("HTTP/1.1 200 OK\r\nX-Block: b\r\nContent-Length: 1\r\n") && sent.endsWith("\r\n\r\nx")
    );
  } catch {
    return false;
  }
}

export const blockWorks = headIsRewritable();
