import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (e.g. List-Unsubscribe on the waitlist's e-mails). */
  headers?: Record<string, string>;
}

/** Sends mail: SMTP when configured, otherwise .eml files in an outbox folder. */
export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
}

/**
 * Where a buyer's reply goes: the shop's contact e-mail as the owner set it in Configuración (read
 * at each send), when it is not the sender's own address. Seven messages ask her to reply, and
 * the sender is set once in the server's environment, often an address nobody reads.
 */
export type ReplyTo = () => string | undefined;

function withReplyTo(from: string, replyTo: ReplyTo | undefined): { from: string; replyTo?: string } {
  const address = replyTo?.()?.trim();
  if (!address || from.toLowerCase().includes(address.toLowerCase())) return { from };
  return { from, replyTo: address };
}

export function createSmtpMailer(url: string, from: string, replyTo?: ReplyTo): Mailer {
  // Timeouts well under the e-mail queue's claim time (5 min), so a slow send is never claimed
  // and sent again by another server.
  const withTimeouts = new URL(url);
  for (const [key, ms] of [
    ["connectionTimeout", 10_000],
    ["greetingTimeout", 10_000],
    ["socketTimeout", 60_000],
  ] as const) {
    if (!withTimeouts.searchParams.has(key)) withTimeouts.searchParams.set(key, String(ms));
  }
  const transport = nodemailer.createTransport(withTimeouts.toString());
  return {
    kind: "smtp",
    async send(message) {
      await transport.sendMail({ ...withReplyTo(from, replyTo), ...message });
    },
  };
}

/** Nothing is lost without SMTP: each message is a complete .eml file, and a log line says so. */
export function createOutboxMailer(
  dir: string,
  from: string,
  log: (line: string) => void,
  replyTo?: ReplyTo,
): Mailer {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "outbox",
    async send(message) {
      const info = await composer.sendMail({ ...withReplyTo(from, replyTo), ...message });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(dir, `${stamp}-${Math.random().toString(36).slice(2, 8)}.eml`);
      // Whole or not at all: a full disk leaves no half message for a reader (or a test) to find.
      // Written beside the outbox (the same disk, so the move is a rename), never in it: a reader
      // listing the outbox meanwhile sees no file that is about to move.
      // An outbox that is a mount of its own (its parent not writable, or another disk) gets the
      // file written in place, as before.
      const writing = path.join(path.dirname(dir), `.${path.basename(dir)}-escribiendo`);
      const partial = path.join(writing, path.basename(file));
      const besideIt = await fs.mkdir(writing, { recursive: true }).then(
        () => true,
        () => false,
      );
      if (!besideIt) await fs.writeFile(file, info.message as Buffer);
      else {
        try {
          await fs.writeFile(partial, info.message as Buffer);
          await fs.rename(partial, file);
        } catch (error) {
          await fs.rm(partial, { force: true });
          if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
          await fs.writeFile(file, info.message as Buffer);
        }
      }
      // The file names its recipient; the log does not (it may be read by others, kept for longer).
      log(`Correo «${message.subject}» guardado en ${file}`);
    },
  };
}
