import { render } from "@react-email/components";
import type { ReactElement } from "react";
import type { MailMessage } from "../mailer.server";

/** A message as a template hands it to the queue (the queue adds the address). */
export type RenderedEmail = Omit<MailMessage, "to">;

/**
 * Builds a message from its parts (decision 47): the HTML from an element made of the shared
 * components (rendered with React Email, which escapes every text it is given), the plain-text part
 * as written (it carries the same links), and the subject and headers as they are.
 */
export async function renderEmail(message: {
  subject: string;
  html: ReactElement;
  text: string;
  headers?: Record<string, string>;
}): Promise<RenderedEmail> {
  return {
    subject: message.subject,
    text: message.text,
    html: withoutPreloads(await render(message.html)),
    ...(message.headers ? { headers: message.headers } : {}),
  };
}

/**
 * React adds `<link rel="preload" as="image">` to the head for each image it renders, for a page's
 * loading; an e-mail has no use for them (and a mail client's reader might fetch each image twice).
 */
function withoutPreloads(html: string): string {
  return html.replace(/<link rel="preload" as="image"[^>]*\/>/g, "");
}
