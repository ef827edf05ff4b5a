import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockWorks, headerBlock, writeBlockHead } from "./header-block";

// The same answer written two ways by a real node:http server: from a header block, and by
// writeHead from the whole list. What a client receives must be byte for byte the same (the Date
// line aside), whatever the request asks of the connection.
const block = headerBlock([
  "Content-Security-Policy",
  `default-src 'self';script-src 'self' ${"'sha256-abc=' ".repeat(40)}`,
  "X-Content-Type-Options",
  "nosniff",
  "Content-Type",
  "text/html; charset=utf-8",
  "X-Cache",
  "HIT",
]);
const body = Buffer.from("<p>Anillo Marea</p>");

let server: http.Server;
let port = 0;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const rest = ["Content-Length", String(body.length)];
    if (req.url?.includes("closing")) rest.push("Connection", "close");
    if (req.url?.includes("id")) rest.push("X-Request-Id", "abc-123");
    // The checkout's answers are 202s and 409s as often as 200s.
    const status = Number(new URL(req.url ?? "/", "http://x").searchParams.get("status") ?? 200);
    if (req.url?.startsWith("/block")) writeBlockHead(res, status, block, rest);
    else res.writeHead(status, block.list.concat(rest));
    if (req.method === "HEAD") res.end();
    else res.end(body);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Writes `raw` on a new connection; resolves with all it got, once the server closed or went quiet. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let got = "";
    let quiet: NodeJS.Timeout | undefined;
    const socket = net.connect(port, "127.0.0.1", () => socket.write(raw));
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      got += chunk;
      clearTimeout(quiet);
      // A kept-alive connection stays open: what arrived within 200 ms of the last byte is all.
      quiet = setTimeout(() => socket.destroy(), 200);
    });
    socket.on("close", () => {
      clearTimeout(quiet);
      resolve(got.replace(/\r\nDate: [^\r]+/g, "\r\nDate: (now)"));
    });
    socket.on("error", reject);
  });
}

const requests: [string, (path: string) => string][] = [
  ["HTTP/1.1, kept alive", (p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ["HTTP/1.1 asking to close", (p) => `GET ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
  ["HTTP/1.0", (p) => `GET ${p} HTTP/1.0\r\n\r\n`],
  ["HTTP/1.0 asking to keep alive", (p) => `GET ${p} HTTP/1.0\r\nConnection: keep-alive\r\n\r\n`],
  ["HEAD", (p) => `HEAD ${p} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
  [
    "two requests pipelined, the second closing",
    (p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\nGET ${p}?id HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
  ],
  [
    "the server stopping (Connection: close from the shop)",
    (p) => `GET ${p}?closing HTTP/1.1\r\nHost: x\r\n\r\n`,
  ],
  ["with a header of its own", (p) => `GET ${p}?id HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
  [
    "a 202 and then a 409 on one connection",
    (p) =>
      `POST ${p}?status=202 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}` +
      `POST ${p}?status=409&id HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
  ],
];

describe("an answer written from a header block", () => {
  it.each(requests)("is what writeHead writes from the whole list: %s", async (_name, request) => {
    const fromBlock = await exchange(request("/block"));
    const fromList = await exchange(request("/list"));
    expect(fromBlock).toBe(fromList);
    expect(fromBlock).toContain("\r\nContent-Security-Policy: default-src 'self';");
    expect(fromBlock).toContain(`\r\nContent-Length: ${body.length}\r\n`);
  });

  it("answers two requests on one kept-alive connection, the block's headers in each", async () => {
    const got = await exchange(
      `GET /block HTTP/1.1\r\nHost: x\r\n\r\nGET /block?id HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(got.match(/HTTP\/1\.1 200 OK\r\n/g)).toHaveLength(2);
    expect(got.match(/X-Content-Type-Options: nosniff\r\n/g)).toHaveLength(2);
    expect(got.match(/<p>Anillo Marea<\/p>/g)).toHaveLength(2);
    expect(got).toContain("X-Request-Id: abc-123\r\n");
  });

  it("is checked once, as writeHead would check it: a value with a line break or a header Node writes itself is refused", () => {
    expect(() => headerBlock(["X-Evil", "a\r\nSet-Cookie: x=1"])).toThrow();
    expect(() => headerBlock(["Bad Name", "a"])).toThrow();
    expect(() => headerBlock(["X-Cache", "HIT", "Vary"])).toThrow(/name, value/);
    for (const name of ["Content-Length", "connection", "Transfer-Encoding", "Date", "Keep-Alive"])
      expect(() => headerBlock([name, "1"])).toThrow(/Node's to write/);
  });

  it("is written by rewriting the head Node made on the Node this project runs on (20.x)", () => {
    // Elsewhere it may fall back to writeHead, which the comparisons above still check.
    if (process.versions.node.startsWith("20.")) expect(blockWorks).toBe(true);
  });
});
