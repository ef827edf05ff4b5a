import { shopDateTimeStamp } from "~/lib/dates";

/*
 * Reading a server-rendered page as a person does, for tests that post forms without a browser:
 * its visible text, what it announces, the messages under its fields.
 */

const DAY = 86_400_000;

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, "&");
}

/** The page's text as a person reads it (scripts and tags left out). */
export function visibleText(html: string): string {
  return decodeEntities(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " "),
  );
}

/** What the page announces: the text of every non-empty role="alert" / role="status" element. */
export function announcements(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<(p|div)\b[^>]*\brole="(?:alert|status)"[^>]*>([\s\S]*?)<\/\1>/g)) {
    const text = visibleText(m[2] ?? "").trim();
    if (text) found.push(text);
  }
  return found;
}

/** The messages printed under a form's fields. */
export function fieldMessages(html: string): string[] {
  return [...html.matchAll(/<p id="[^"]*-error"[^>]*>([\s\S]*?)<\/p>/g)].map((m) =>
    visibleText(m[1] ?? "").trim(),
  );
}

/** A day in Mexico City time, `days` from today: what a date field holds ("2026-11-23"). */
export function shopDay(days: number): string {
  return shopDateTimeStamp(new Date(Date.now() + days * DAY)).slice(0, 10);
}
