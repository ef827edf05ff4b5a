import { SMTPServer } from "smtp-server";

/** A real SMTP server on a free local port that keeps every message it receives. */
export async function startSmtp(
  options: {
    /** A recipient the server refuses at RCPT TO: its reply's code and text, e.g. [550, "5.1.1 no existe"]. */
    refuse?: (address: string) => [number, string] | null;
  } = {},
): Promise<{
  port: number;
  received: { to: string[]; raw: string }[];
  close(): Promise<void>;
}> {
  const received: { to: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal[1]), { responseCode: refusal[0] }));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString();
      });
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as { port: number }).port;
  return { port, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** Undoes quoted-printable (=XX bytes, UTF-8) in a body or a Q-encoded header word. */
function unquote(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? ""));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A raw message as a person would read it: headers' encoded words and the bodies decoded. */
export function readable(raw: string): string {
  const headers = raw
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, word: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(word, "base64").toString("utf8")
        : unquote(word.replace(/_/g, " ")),
    );
  return unquote(headers.replace(/=\r?\n/g, ""));
}
