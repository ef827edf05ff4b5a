import { describe, expect, it } from "vitest";
import { type AccessLine, accessLineText } from "./log.server";

const line: AccessLine = {
  reqId: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
  method: "GET",
  path: "/nosotros",
  status: 200,
  bytes: 5120,
  ms: 1.8,
  address: "203.0.113.7",
  aborted: false,
};

describe("accessLineText", () => {
  it("writes the line pino would write for the same fields, in the same order", () => {
    expect(accessLineText(line, "2026-11-26T12:00:00.000Z")).toBe(
      `{"level":"info","time":"2026-11-26T12:00:00.000Z","pid":${process.pid},"reqId":"0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","method":"GET","path":"/nosotros","status":200,"bytes":5120,"ms":1.8,"address":"203.0.113.7","msg":"Solicitud"}\n`,
    );
  });

  it("leaves out what is undefined and says when the client left", () => {
    const text = accessLineText(
      { ...line, method: undefined, bytes: undefined, address: undefined, aborted: true },
      "t",
    );
    expect(JSON.parse(text)).toEqual({
      level: "info",
      time: "t",
      pid: process.pid,
      reqId: line.reqId,
      path: "/nosotros",
      status: 200,
      ms: 1.8,
      aborted: true,
      msg: "Solicitud",
    });
  });

  it("escapes whatever a request may carry into one valid line of ASCII", () => {
    const odd = '/x"y\\z\u0001é\u2028</script>';
    const text = accessLineText({ ...line, path: odd, address: "1.2.3.4\n{}" }, "t");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.slice(0, -1)).not.toContain("\n");
    expect(/^[\x20-\x7e]*\n$/.test(text)).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ path: odd, address: "1.2.3.4\n{}" });
    expect(Buffer.byteLength(text)).toBe(text.length);
  });
});
